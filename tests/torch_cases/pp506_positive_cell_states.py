"""(torch-fix86) A recurrent model whose `forward` asks each layer's cell (`self.cell_list[i]`) for its zero
states: the cell's `init_hidden` makes them on the host and copies them on every forward, though no `forward`
of the module calls it by a name of its own class."""

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

    def init_hidden(self, batch_size, size):
        return (
            torch.zeros(batch_size, self.hidden_dim, *size).cuda(),  # expect: PP506 high
            torch.zeros(batch_size, self.hidden_dim, *size).cuda(),  # expect: PP506 high
        )


class StackedLSTM(nn.Module):
    def __init__(self, in_dim, hidden_dim, layers):
        super().__init__()
        dims = [in_dim] + [hidden_dim] * layers
        self.cell_list = nn.ModuleList(ConvLSTMCell(dims[i], hidden_dim) for i in range(layers))

    def forward(self, frames):
        states = [
            self.cell_list[i].init_hidden(frames.size(1), frames.shape[-2:])
            for i in range(len(self.cell_list))
        ]
        for x in frames:
            for i, cell in enumerate(self.cell_list):
                x, c = cell(x, states[i])
                states[i] = (x, c)
        return x
