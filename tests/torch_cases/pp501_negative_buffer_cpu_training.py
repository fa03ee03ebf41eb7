"""review22 item 3: a registered buffer read in `forward` of a module that trains the model on the CPU
itself and places nothing: a host read, no wait for a GPU."""

import torch
import torch.nn as nn


class ContrastMemory(nn.Module):
    def __init__(self, dim, k, t):
        super().__init__()
        self.register_buffer("params", torch.tensor([k, t]))
        self.memory = nn.Linear(dim, dim)

    def forward(self, x):
        k = int(self.params[0].item())
        return self.memory(x)[:, :k]


def main():
    model = ContrastMemory(8, 4, 0.07)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        out = model(torch.randn(2, 8))
        loss = out.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
