"""(torch-fix94) The warping network the model builds; a kept copy of this module sits beside it, which no file
imports: the copy's copies are code nothing runs, reported below the default."""

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
