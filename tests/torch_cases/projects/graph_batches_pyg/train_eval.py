"""One epoch of training over PyG batches: a `Batch` has `pin_memory()`, so the loader's pin_memory=True
would pin it."""

import torch


def train(model, optimizer, loader, device):
    model.train()
    for data in loader:
        optimizer.zero_grad()
        data = data.to(device)
        out = model(data)
        loss = torch.nn.functional.nll_loss(out, data.y.view(-1))
        loss.backward()
        optimizer.step()
    return model
