"""PP501 (torch-fix71): a torch module's `forward` reads a device value on the host (not a loss by name), and
the training loop of another module calls an instance of it on every step (OpenKE's `RotatE.forward`)."""

import torch
from torch import nn


class Overlap(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.n_classes = n_classes

    def forward(self, inputs, target):
        inputs = torch.softmax(inputs, dim=1)
        dice = 1.0 - (2 * (inputs * target).sum() + 1e-5) / (inputs.sum() + target.sum() + 1e-5)
        self.last_overlap = (inputs * target).sum().item()  # expect: PP501
        return dice
