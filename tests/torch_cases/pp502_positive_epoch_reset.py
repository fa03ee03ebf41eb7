"""A total reset each epoch and summed over every batch keeps all of the epoch's graphs."""

import torch


def train(model, optimizer, loader, num_batches, epochs, device):
    batches = iter(loader)
    for _ in range(epochs):
        epoch_loss = 0.0
        for _ in range(num_batches):
            x, y = next(batches)
            loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss  # expect: PP502 high
        print(epoch_loss / num_batches)
