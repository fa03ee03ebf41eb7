import torch
from torch import nn


def train_accumulating(model, loader, optimizer, accumulation_steps=4):
    criterion = nn.MSELoss()
    batch_loss = 0
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x), y)
        batch_loss += loss
        if (i + 1) % accumulation_steps == 0:
            batch_loss.backward()
            optimizer.step()
            batch_loss = 0


def train_detached(model, loader, optimizer):
    criterion = nn.MSELoss()
    total, losses = 0.0, []
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        losses.append(loss.detach())
    with torch.no_grad():
        return total, torch.stack(losses).mean()


def multi_task(model, loader, optimizer, heads):
    for x, ys in loader:
        outputs = model(x)
        losses = []
        for head, y in zip(heads, ys, strict=True):
            losses.append(nn.functional.cross_entropy(head(outputs), y))
        loss = sum(losses)
        loss.backward()
        optimizer.step()
