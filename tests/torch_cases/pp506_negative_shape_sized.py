"""`torch.tensor(x.shape)` holds the sizes as data (four numbers, not a tensor of that shape), and noise
drawn with `torch.randn_like` is made where `std` is."""

import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(20, 20)

    def forward(self, x):
        std = self.fc(x).exp()
        eps = torch.randn_like(std)
        dims = torch.tensor(x.shape).cuda()
        return eps * std, dims
