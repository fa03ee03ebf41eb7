"""torch-fix130, JEM's shape (hold-out 33): a model whose `sample` draws its replay starts on the host and
copies them to the device; a trainer class calls it through the model it holds, `self.energy_model.sample(n)`,
on every training step (under a flag set for the whole run)."""

import torch
from torch import nn


class EnergyModel(nn.Module):
    def __init__(self, net, device, channels=3):
        super().__init__()
        self.net = net
        self.device = device
        self.channels = channels

    def forward(self, x):
        return self.net(x).logsumexp(1)

    def sample(self, batch_size):
        c = self.channels
        start = torch.FloatTensor(batch_size, c, 32, 32).uniform_(-1, 1).to(self.device)  # expect: PP506
        for _ in range(20):
            start = start.detach().requires_grad_(True)
            grad = torch.autograd.grad(self(start).sum(), start)[0]
            start = start + grad
        return start.detach()

    def describe(self):
        return torch.zeros(self.channels).to(self.device)
