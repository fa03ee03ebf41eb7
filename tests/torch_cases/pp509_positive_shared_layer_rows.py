import torch
import torch.nn as nn
import torch.nn.functional as F


class RowProjector(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim, dim))

    def project(self, x, weight):
        rows = []
        for i in range(x.size(0)):  # expect: PP509 low
            rows.append(F.linear(x[i], weight))
        return torch.stack(rows, dim=0)

    def forward(self, x):
        return self.project(x, self.weight)


def denormalise(images, device):
    mean = torch.tensor([0.5071, 0.4866, 0.4409], device=device)
    std = torch.tensor([0.2009, 0.1984, 0.2023], device=device)
    out = torch.empty_like(images)
    for i in range(len(mean)):  # expect: PP509 low
        out[i] = images[i] * std[i] + mean[i]
    return out


def train(model, loader, optimizer, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.mse_loss(model(denormalise(x, device)), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
