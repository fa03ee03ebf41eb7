"""torch-fix65, clean twin of module_reader: the callers pass the parameters whose default branch reads
(`reduction="none"`), so the read never runs on a training step."""

import torch


def compute_acc(logits, label, reduction="mean"):
    ret = (torch.argmax(logits, dim=1) == label).float()
    if reduction == "none":
        return ret.detach()
    elif reduction == "mean":
        return ret.mean().item()
