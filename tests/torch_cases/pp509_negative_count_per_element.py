"""torch-fix44: counts read once (`.tolist()`), counted on a host copy, or held in a list or NumPy array:
a comprehension over them reads nothing from a device."""

import numpy as np
import torch


def ndcg_read_once(scores, labels, k):
    answer_count = labels.sum(1).tolist()
    weights = 1 / torch.log2(torch.arange(2, 2 + k).float())
    return torch.Tensor([weights[: min(int(n), k)].sum() for n in answer_count])


def ndcg_host_copy(scores, labels, k):
    labels = labels.cpu()
    answer_count = labels.sum(1)
    weights = 1 / torch.log2(torch.arange(2, 2 + k).float())
    return torch.Tensor([weights[: min(int(n), k)].sum() for n in answer_count])


def parsed_sizes(lines, scales):
    counts = np.array([len(line.split()) for line in lines]).sum(0)
    return [int(n) for n in counts] + [float(s) for s in scales]
