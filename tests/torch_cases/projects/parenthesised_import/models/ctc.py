import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden
        self.cell = nn.GRUCell(hidden, hidden)

    def forward(self, x):
        h = torch.zeros(x.size(0), self.hidden).cuda()  # expect: PP506
        return self.cell(x, h)
