"""A WGAN-GP model's shape: methods of the model draw noise and interpolation weights on the host, and the
training module (which never imports this one: it is given the model) calls them on every critic step."""

import torch
from torch import autograd, nn


class CriticGAN(nn.Module):
    def __init__(self, generator, critic, z_size):
        super().__init__()
        self.generator = generator
        self.critic = critic
        self.z_size = z_size

    def critic_loss(self, x, z):
        return self.critic(self.generator(z)).mean() - self.critic(x).mean()

    def draw_latents(self, size):
        z = torch.randn(size, self.z_size) * 0.1
        return z.cuda()  # expect: PP506

    def penalty_term(self, x, g):
        a = torch.rand(x.size(0), 1, 1, 1)
        a = a.cuda()  # expect: PP506
        mixed = (a * x + (1 - a) * g).requires_grad_(True)
        c = self.critic(mixed)
        ones = torch.ones(c.size()).cuda()  # expect: PP506
        grads = autograd.grad(c, mixed, grad_outputs=ones, create_graph=True)[0]
        return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()
