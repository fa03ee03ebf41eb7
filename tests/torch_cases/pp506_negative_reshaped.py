"""A batch from the host bound again to itself reshaped, then moved: data the copy must carry."""

import torch


def train(model, loader, optimizer, device, dim=64):
    for batch, labels in loader:
        x = batch
        x = x.view(x.size(0), 3, dim, dim).contiguous()
        x = x.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), labels.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
