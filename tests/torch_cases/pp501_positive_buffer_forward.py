"""torch-fix104: settings held in a registered buffer and read with `.item()` at the top of `forward`
(CRD's `ContrastMemory`, copied in SemCKD and mdistiller): the buffer moves to the GPU with the module, so
every forward, on every training step, waits for the device."""

import math

import torch
from torch import nn


class ContrastMemory(nn.Module):
    def __init__(self, input_size, output_size, K, T=0.07, momentum=0.5):
        super().__init__()
        self.n_lem = output_size
        self.register_buffer("params", torch.tensor([K, T, -1, -1, momentum]))
        stdv = 1.0 / math.sqrt(input_size / 3)
        self.register_buffer("memory", torch.rand(output_size, input_size).mul_(2 * stdv).add_(-stdv))

    def forward(self, v1, v2, idx):
        K = int(self.params[0].item())  # expect: PP501
        T = self.params[1].item()
        weight = torch.index_select(self.memory, 0, idx.view(-1)).detach()
        weight = weight.view(v1.size(0), K + 1, -1)
        return torch.exp(torch.div(torch.bmm(weight, v2.unsqueeze(2)), T))


class Scaled(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.body = nn.Linear(dim, dim)
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return self.body(x) * self.scale.item()  # expect: PP501


def train(memory, model, loader, optimizer):
    memory.cuda()
    for v1, v2, idx in loader:
        v1, v2, idx = v1.cuda(), v2.cuda(), idx.cuda()
        loss = -memory(v1, v2, idx).log().mean() + model(v1).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
