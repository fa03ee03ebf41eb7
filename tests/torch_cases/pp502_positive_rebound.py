"""The kept loss is rebound on the device before the sum (`.mean()`), not read to the host."""

import torch


def train_epoch(model, loader, optimizer):
    train_loss_sum = 0
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        batch_loss = torch.nn.functional.cross_entropy(model(images), labels, reduction="none")
        batch_loss = batch_loss.mean()
        optimizer.zero_grad()
        batch_loss.backward()
        optimizer.step()
        train_loss_sum += batch_loss  # expect: PP502 high
    return train_loss_sum
