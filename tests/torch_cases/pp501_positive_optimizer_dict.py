"""A GAN class keeps its two optimizers in a dict (`self.optim['g']`, `self.optim['d']`); its per-batch
training method (backward and `self.optim['d'].step()`), which a loop in another module runs every step,
returns the losses read with `.item()` (hold-out 17's Manifold Mixup `MUGAN._train_on_instance`)."""

import torch
from torch import optim


class MUGAN:
    def __init__(self, gen, disc, use_cuda=True):
        self.g, self.d = gen, disc
        if use_cuda:
            self.g.cuda()
            self.d.cuda()
        self.optim = {
            "g": optim.Adam(self.g.parameters(), lr=2e-4),
            "d": optim.Adam(self.d.parameters(), lr=2e-4),
        }

    def train_on_instance(self, z, x):
        self.optim["g"].zero_grad()
        fake = self.g(z)
        gen_loss = -self.d(fake).mean()
        gen_loss.backward()
        self.optim["g"].step()
        self.optim["d"].zero_grad()
        d_loss = self.d(fake.detach()).mean() - self.d(x).mean()
        d_loss.backward()
        self.optim["d"].step()
        losses = {
            "g_loss": gen_loss.data.item(),  # expect: PP501
            "d_loss": d_loss.data.item(),
        }
        return losses, {"gz": fake.detach()}

    def sample(self, z):
        with torch.no_grad():
            return self.g(z)
