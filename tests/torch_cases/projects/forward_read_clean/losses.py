"""Clean twin of forward_read: the loss module's read runs only when asked, and a plain (non-torch) scorer's
`forward` is not what calling its instance runs."""

import torch
from torch import nn


class DiceLoss(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.n_classes = n_classes

    def forward(self, inputs, target):
        inputs = torch.softmax(inputs, dim=1)
        return 1.0 - (2 * (inputs * target).sum() + 1e-5) / (inputs.sum() + target.sum() + 1e-5)

    def report(self, dice):
        return dice.item()


class Scorer:
    def forward(self, value):
        return value.item()

    def __call__(self, value):
        return value
