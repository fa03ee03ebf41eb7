"""Loops in a `forward` whose count comes from the data (`range(frames.size(0))`, one pass per sample) or
from an attribute the model changes as it runs (`self.depth`, raised by `grow`) are no loops over the model's
layers (pp506_positive_layer_states.py). (torch-fix82) Still, a loop in a def a training step runs takes the
def's level (`_runs_every_step`), so their copies are `medium`, not the `low` of a loop that steps
nothing.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn


class RNN(nn.Module):
    def __init__(self, num_hidden, configs):
        super().__init__()
        self.configs = configs
        self.num_hidden = num_hidden
        self.depth = 1
        self.cell = nn.Conv2d(num_hidden, num_hidden, 3, padding=1)

    def grow(self):
        self.depth += 1

    def forward(self, frames):
        batch, height, width = frames.shape[0], frames.shape[3], frames.shape[4]
        device = self.configs.device
        states = []
        for b in range(frames.size(0)):
            zero = torch.zeros([self.num_hidden, height, width]).to(device)  # expect: PP506 high
            states.append(zero + b)
        for i in range(self.depth):
            zero = torch.zeros([batch, self.num_hidden, height, width]).to(device)  # expect: PP506 high
            states.append(zero * i)
        h = frames[:, 0]
        for s in states:
            h = self.cell(h) + s
        return h
