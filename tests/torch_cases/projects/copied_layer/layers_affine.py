"""The affine copy of `layers.py`: its position embedding is built nowhere either."""

import torch
import torch.nn as nn


class PositionEmbedding(nn.Module):
    def __init__(self, dim):
        super(PositionEmbedding, self).__init__()  # noqa: UP008 (a copy names itself so)
        self.dim = dim

    def forward(self, x):
        pos = torch.arange(x.size(1)).float().cuda()  # expect: PP506
        return x + pos[None, :, None]
