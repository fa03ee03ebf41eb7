"""`nn.Parameter(...)` of a host tensor moved in `__init__`: made once with the module, not per step."""

import torch
import torch.nn as nn


class PeepholeCell(nn.Module):
    def __init__(self, channels, height, width, device):
        super().__init__()
        self.conv = nn.Conv2d(2 * channels, 4 * channels, 3, padding=1)
        self.w_ci = nn.Parameter(torch.zeros(1, channels, height, width)).to(device)
        self.scale = nn.Parameter(data=torch.ones(1)).to(device)

    def forward(self, x, c):
        gates = self.conv(torch.cat([x, c], dim=1))
        return torch.sigmoid(gates + self.w_ci * c) * self.scale
