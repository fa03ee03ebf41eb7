import torch
import torch.nn.functional as F


def loss_small(y_1, y_2, t, forget_rate):
    picked = F.cross_entropy(y_1, t, reduction="none") + F.cross_entropy(y_2, t, reduction="none")
    keep = int((1 - forget_rate) * picked.numel())
    return torch.topk(picked, keep, largest=False).values.mean()


def loss_logged(y_1, t):
    loss = F.cross_entropy(y_1, t)
    return loss, loss.item()


def ce_plain(y_1, y_2, t, forget_rate):
    return F.cross_entropy(y_1, t) + F.cross_entropy(y_2, t)
