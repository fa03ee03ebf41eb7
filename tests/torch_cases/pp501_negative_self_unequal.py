"""torch-fix104: an inequality of two different tensors, or a self-inequality of a host number, decides
nothing about a device value every step."""

import torch

device = torch.device("cuda")


def train(model, loader, optimizer, criterion, limit):
    total = 0.0
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        if step != limit:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if total != total:
            break
