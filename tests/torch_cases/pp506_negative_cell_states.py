"""(torch-fix86) The clean twin of pp506_positive_cell_states.py: the cell makes its zero states on the device
of the input it is given."""

import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, in_dim, hidden_dim):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.conv = nn.Conv2d(in_dim + hidden_dim, 4 * hidden_dim, 1)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = torch.split(self.conv(torch.cat([x, h], 1)), self.hidden_dim, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c

    def init_hidden(self, like):
        shape = (like.size(0), self.hidden_dim, *like.shape[-2:])
        return torch.zeros(shape, device=like.device), torch.zeros(shape, device=like.device)


class StackedLSTM(nn.Module):
    def __init__(self, in_dim, hidden_dim, layers):
        super().__init__()
        dims = [in_dim] + [hidden_dim] * layers
        self.cell_list = nn.ModuleList(ConvLSTMCell(dims[i], hidden_dim) for i in range(layers))

    def forward(self, frames):
        states = [self.cell_list[i].init_hidden(frames[0]) for i in range(len(self.cell_list))]
        for x in frames:
            for i, cell in enumerate(self.cell_list):
                x, c = cell(x, states[i])
                states[i] = (x, c)
        return x
