"""(torch-fix111) A position embedding kept in two copies of the model file, named only by its own `super(...)`
calls and a commented-out line: code nothing runs, reported below the default."""

import torch
import torch.nn as nn


class PositionEmbedding(nn.Module):
    def __init__(self, dim):
        super(PositionEmbedding, self).__init__()  # noqa: UP008 (a copy names itself so)
        self.dim = dim

    def forward(self, x):
        pos = torch.arange(x.size(1)).float().cuda()  # expect: PP506
        return x + pos[None, :, None]


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        # self.pos = PositionEmbedding(dim)

    def forward(self, x):
        scale = torch.ones(x.size(0), 1, 1).cuda()  # expect: PP506
        return x * scale
