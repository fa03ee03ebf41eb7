"""torch-fix104: the NaN test of a loss written as its inequality with itself, in an `if` before each
step (SimpleView's `if loss.ne(loss).any():`): the truth value of a CUDA tensor waits for the GPU."""

import torch

device = torch.device("cuda")


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        if loss.ne(loss).any():  # expect: PP501
            print("WARNING: avoiding step as nan in the loss")
        else:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_compared(model, loader, optimizer, criterion):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        if loss != loss:  # expect: PP501
            continue
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
