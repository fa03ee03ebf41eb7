"""A loss's `forward` turning settings and plain numbers into Python values reads no device tensor."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class NCECriterion(nn.Module):
    def __init__(self, n_lem):
        super().__init__()
        self.n_lem = n_lem

    def forward(self, x, targets):
        pnt = 1 / float(self.n_lem)
        lnpmt = torch.div(x.select(1, 0), x.select(1, 0).add(x.size(1) * pnt)).log_()
        return -lnpmt.sum(0) / x.size(0)


class WeightedCrossEntropyLoss(nn.Module):
    def __init__(self, thresholds, weight=None):
        super().__init__()
        self._thresholds = thresholds
        self._weight = weight

    def forward(self, input, target):
        class_index = torch.zeros_like(target).long()
        thresholds = [0.0] + np.log10(self._thresholds).tolist()
        for i, threshold in enumerate(thresholds):
            class_index[target >= threshold] = i
        return F.cross_entropy(input, class_index, self._weight)


class BootstrappedCE(nn.Module):
    def __init__(self, top_p=0.15):
        super().__init__()
        self.top_p = top_p

    def forward(self, input, target):
        raw_loss = F.cross_entropy(input, target, reduction="none").view(-1)
        loss, _ = torch.topk(raw_loss, int(raw_loss.numel() * self.top_p), sorted=False)
        return loss.mean()
