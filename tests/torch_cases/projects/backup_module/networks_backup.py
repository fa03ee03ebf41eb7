"""(torch-fix94) An older copy of networks.py that no file imports."""

import torch
import torch.nn as nn


class GridLocNet(nn.Module):
    def __init__(self, points):
        super().__init__()
        self.fc = nn.Linear(points * 2, points * 2)

    def forward(self, x):
        coor = self.fc(x.flatten(1))
        margin = torch.tensor(0.08).cuda()  # expect: PP506
        return coor + margin
