"""A generator's forward that builds the same layer index from numpy on every call (StyleGAN's style
mixing): `np.arange` of a fixed size, indexed with `np.newaxis`, copied to the device every step."""

import numpy as np
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, g_mapping, g_synthesis, num_layers):
        super().__init__()
        self.g_mapping, self.g_synthesis, self.num_layers = g_mapping, g_synthesis, num_layers

    def forward(self, z, depth):
        dz = self.g_mapping(z)
        dlatents2 = self.g_mapping(torch.randn(z.shape, device=z.device))
        idx = torch.from_numpy(np.arange(self.num_layers)[None, :, np.newaxis]).to(z.device)  # expect: PP506 high  # fmt: skip
        cur_layers = 2 * (depth + 1)
        dz = torch.where(idx < cur_layers, dz, dlatents2)
        return self.g_synthesis(dz, depth)
