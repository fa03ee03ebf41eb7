"""Index arrays from numpy that change between calls: a range as long as the batch, or one reordered by
a random permutation. The copy carries new values every time."""

import numpy as np
import torch
import torch.nn as nn


class Mixer(nn.Module):
    def __init__(self, num_layers):
        super().__init__()
        self.num_layers = num_layers

    def forward(self, x, perm):
        rows = torch.from_numpy(np.arange(len(x))[:, np.newaxis]).to(x.device)
        order = torch.from_numpy(np.arange(self.num_layers)[perm]).to(x.device)
        return x[rows, order]
