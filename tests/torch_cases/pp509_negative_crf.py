import torch
import torch.nn as nn


class MultiHead(nn.Module):
    def __init__(self, num_heads, dim, width):
        super().__init__()
        self.num_heads = num_heads
        self.heads = nn.ModuleList(nn.Linear(dim, dim) for _ in range(num_heads))
        self.scale = nn.Parameter(torch.ones(width, num_heads))

    def forward(self, x):
        outs = []
        for h in range(self.num_heads):  # a layer per head, not an element of a tensor
            outs.append(self.heads[h](x))
        scaled = []
        for h in range(self.num_heads):  # `scale` is sized by `width` first: its columns are not this axis
            scaled.append(outs[h] * self.scale[h].sum())
        return torch.cat(scaled, dim=-1)
