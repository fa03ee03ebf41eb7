"""PP501 (torch-fix151), the silent neighbours of a copy at every time step of `forward`: a loop over a
literal few (`range(3)`, a handful of heads), a loop over a list of layers (not time steps), a copy under a
test of the step (`if i == seq_num - 1:`) and one under an inference switch."""

import torch
import torch.nn as nn

device = torch.device("cuda")


class Recurrent(nn.Module):
    def __init__(self, n_in=40, n_hidden=64):
        super().__init__()
        self.cell = nn.GRUCell(n_in, n_hidden)
        self.layers = nn.ModuleList([nn.Linear(n_hidden, n_hidden) for _ in range(2)])
        self.keep_states = False

    def forward(self, x):
        h = torch.zeros(x.size(0), 64, device=device)
        heads = []
        for k in range(3):
            heads.append(h[:, k].cpu().numpy())
        for layer in self.layers:
            self.last = layer(h).cpu().numpy()
        last = None
        for i in range(x.size(1)):
            h = self.cell(x[:, i], h)
            if i == x.size(1) - 1:
                last = h.cpu().numpy()
            if self.keep_states:
                self.states.append(h.cpu().numpy())
        return h, heads, last


model = Recurrent().to(device)
