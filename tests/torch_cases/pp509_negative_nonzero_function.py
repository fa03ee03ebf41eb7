# `torch.nonzero` of rows of a host tensor (made on the CPU from NumPy), once per sample of a data set's
# preparation: no device read
import numpy as np
import torch


def prepare(masks, batches):
    counts = []
    for batch in batches:
        host_mask = torch.from_numpy(np.asarray(masks[batch]))
        for x in range(host_mask.shape[0]):
            counts.append(len(torch.nonzero(host_mask[x])))
    return counts
