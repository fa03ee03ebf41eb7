"""torch-fix41: counts held in a NumPy array (`axis=`), and counts read once with `.tolist()`."""

import numpy as np
import torch


def get_targets(outputs, labels):
    nlabel = np.asarray(labels).sum(axis=1)
    targets = []
    for batch_idx in range(outputs.shape[0]):
        num_gt = int(nlabel[batch_idx])
        targets.append(labels[batch_idx, :num_gt, 0])
    return torch.cat(targets)


def get_targets_read_once(outputs, labels):
    counts = (labels.sum(dim=2) > 0).sum(dim=1).tolist()
    targets = []
    for batch_idx in range(outputs.shape[0]):
        num_gt = counts[batch_idx]
        targets.append(labels[batch_idx, :num_gt, 0])
    return targets
