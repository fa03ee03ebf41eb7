"""PP501 (torch-fix127), silent: a loss read that steers the loop (`if loss < best_loss: break`, early
stopping; `if loss > best: lr = lr / 2` rebinds from other values) is the loop's own logic, not a statistic."""

import torch

device = torch.device("cuda")


def train(model, optimizer, criterion, loader, lr):
    best_loss = float("inf")
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss = loss.item()
        if loss < best_loss:
            break


def train_decay(model, optimizer, criterion, loader, lr):
    best = 0.0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss = loss.item()
        if loss > best:
            lr = lr / 2
