"""wgan-gp's shape: the generator draws its own latent vectors on the host."""

import torch
from torch import nn


class Generator(nn.Module):
    def __init__(self, latent_dim):
        super().__init__()
        self.latent_dim = latent_dim
        self.net = nn.Linear(latent_dim, 784)

    def forward(self, z):
        return self.net(z)

    def sample_latent(self, num_samples):
        return torch.randn((num_samples, self.latent_dim))
