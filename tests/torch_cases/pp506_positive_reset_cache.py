"""A noise cache that a method empties before every ODE solve (ffjord's `before_odeint`, hold-out 11): the
helper that fills it under `if self._e is None:` runs once per solve, every training step."""

import torch
from torch import nn


def sample_rademacher_like(y):
    return torch.randint(low=0, high=2, size=y.shape).to(y) * 2 - 1  # expect: PP506 high


class ODEfunc(nn.Module):
    def __init__(self, diffeq):
        super().__init__()
        self.diffeq = diffeq
        self._e = None

    def before_odeint(self, e=None):
        self._e = e

    def forward(self, t, states):
        y = states[0]
        if self._e is None:
            self._e = sample_rademacher_like(y)
        with torch.set_grad_enabled(True):
            y.requires_grad_(True)
            dy = self.diffeq(t, y)
            e_dzdx = torch.autograd.grad(dy, y, self._e, create_graph=True)[0]
        return dy, -(e_dzdx * self._e).view(y.shape[0], -1).sum(dim=1)
