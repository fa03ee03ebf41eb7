"""A forward that clips its latent when a reduction of a torch op's result is too large (`if
torch.abs(z).max() > 10:`): Python takes the truth of a device tensor on every forward (review 28 item 4).
A NumPy array's reduction is a host value (the control)."""

import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda")


class LatentClip(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.scale = np.ones(dim)

    def forward(self, z):
        z = self.proj(z)
        if torch.abs(z).max() > 10:  # expect: PP501 medium
            z = z / 10
        return z


class HostClip(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.scale = np.ones(dim)

    def forward(self, z):
        if np.abs(self.scale).max() > 10:
            self.scale = self.scale / 10
        return self.proj(z)


model = nn.Sequential(LatentClip(8), HostClip(8)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in torch.utils.data.DataLoader(torch.randn(64, 8), batch_size=8, num_workers=2):
    loss = model(x.to(device)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
