"""A helper that only a one-off sampling method calls, and a forward helper that makes on the device."""

import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.cell = nn.GRUCell(dim, dim)

    def _start(self, batch):
        state = torch.zeros(batch, self.cell.hidden_size)
        state = state.cuda()
        return state

    def _mask(self, n, device):
        return torch.arange(n, device=device) < n // 2

    def forward(self, x):
        return self.cell(x) * self._mask(x.size(0), x.device).unsqueeze(1)

    def sample(self, batch, steps):
        state = self._start(batch)
        for _ in range(steps):
            state = self.cell(state, state)
        return state
