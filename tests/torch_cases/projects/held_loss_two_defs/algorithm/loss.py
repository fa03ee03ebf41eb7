import numpy as np
import torch
import torch.nn.functional as F


def loss_small(y_1, y_2, t, forget_rate):
    both = F.cross_entropy(y_1, t, reduction="none") + F.cross_entropy(y_2, t, reduction="none")
    picked = both.cpu()  # expect: PP501
    order = np.argsort(picked.data)
    keep = int((1 - forget_rate) * len(order))
    return torch.mean(picked[order[:keep]])


def ce_plain(y_1, y_2, t, forget_rate):
    return F.cross_entropy(y_1, t) + F.cross_entropy(y_2, t)
