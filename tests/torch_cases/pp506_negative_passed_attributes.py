"""torch-fix153 near misses: a helper given a batch (not an attribute) by one of its callers, an attribute a
method replaces, a parameter stored as it came (a caller's tensor, wherever it lives), a cell reached by
`getattr` on another object than `self` whose `init_hidden` places its states on the device."""

import torch
import torch.nn as nn


def shift(tensor, offset):
    offset = offset[None, :, None, None]
    if offset.device != tensor.device:
        offset = offset.to(tensor.device)
    return tensor - offset


class Shift(nn.Module):
    def __init__(self, offset):
        super().__init__()
        self.offset = torch.tensor(offset)

    def forward(self, x, batch_offset=None):
        if batch_offset is not None:
            return shift(x, batch_offset)
        return shift(x, self.offset)


class Rescale(nn.Module):
    def __init__(self, scale):
        super().__init__()
        if not isinstance(scale, torch.Tensor):
            scale = torch.tensor(scale)
        self.scale = scale

    def set_scale(self, scale):
        self.scale = scale

    def forward(self, x):
        return x * self.scale.to(x.device)


class Offset(nn.Module):
    def __init__(self, offset):
        super().__init__()
        self.offset = offset

    def forward(self, x):
        return x + self.offset.to(x.device)


class Cell(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden
        self.linear = nn.Linear(hidden, hidden)

    def forward(self, x, h):
        return torch.tanh(self.linear(x) + h)

    def init_hidden(self, batch_size, device):
        return torch.zeros(batch_size, self.hidden, device=device)


class Stack(nn.Module):
    def __init__(self, hidden, layers):
        super().__init__()
        for i in range(layers):
            setattr(self, f"cell{i}", Cell(hidden))
        self.layers = layers

    def forward(self, x):
        for i in range(self.layers):
            cell = getattr(self, f"cell{i}")
            x = cell(x, getattr(self, f"cell{i}").init_hidden(x.size(0), x.device))
        return x
