"""Tests that take the truth of a device tensor in a forward (hold-out 49: Koopa, LSQ, the QAT demo)."""

import math

import torch
import torch.nn as nn

device = torch.device("cuda")


class KPLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.K = None

    def one_step_forward(self, z):
        x, y = z[:, :-1], z[:, 1:]
        self.K = torch.linalg.lstsq(x, y).solution
        if torch.isnan(self.K).any():  # expect: PP501 medium
            print("Encounter K with nan")
        return torch.bmm(z[:, -1:], self.K)

    def forward(self, z):
        return self.one_step_forward(z)


class ActLSQ(nn.Module):
    def __init__(self, nbits=4):
        super().__init__()
        self.nbits = nbits
        self.alpha = nn.Parameter(torch.ones(1))

    def forward(self, x):
        Qp = 2**self.nbits - 1
        if self.training and self.init_state == 0:  # expect: PP501 medium
            self.alpha.data.copy_(2 * x.abs().mean() / math.sqrt(Qp))
            self.init_state.fill_(1)
        return x * self.alpha


class QParam(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("max", torch.tensor([]))

    def update(self, tensor):
        if self.max.nelement() == 0 or self.max.data < tensor.max().data:  # expect: PP501 medium
            self.max.data = tensor.max().data


class QConv2d(nn.Module):
    def __init__(self, conv):
        super().__init__()
        self.conv = conv
        self.qw = QParam()

    def forward(self, x):
        self.qw.update(self.conv.weight.data)
        return self.conv(x)


model = nn.Sequential(KPLayer(), ActLSQ(), QConv2d(nn.Conv2d(3, 3, 3))).to(device)
