"""torch-fix65: a metric def of a package, run as `utils.compute_acc(logits, label)` by the training loop of
another module: its read sits in the branch its default takes (`reduction='mean'`), so it runs every step."""

import torch


def compute_acc(logits, label, reduction="mean"):
    ret = (torch.argmax(logits, dim=1) == label).float()
    if reduction == "none":
        return ret.detach()
    elif reduction == "mean":
        return ret.mean().item()  # expect: PP501
