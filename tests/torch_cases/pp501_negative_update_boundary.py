"""torch-fix104: a remainder test whose branch logs but does not step the optimizer (the step is outside
it, or in the other branch) is a logging interval: its read runs every N-th step only."""

import torch

device = torch.device("cuda")


def train(model, loader, optimizer, criterion, log_every):
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % log_every == 0:
            print(step, loss.item())


def train_logged_apart(model, loader, optimizer, criterion, log_every):
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        if step % log_every == 0:
            print(step, loss.item())
        else:
            optimizer.step()
