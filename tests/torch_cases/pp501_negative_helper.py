"""Helpers whose reads do not run every step: called under a step guard, or reading only under their own
`if`, or only in a loop of their own (judged as that loop)."""

import torch

device = torch.device("cuda")


def report(loss, step, every):
    if step % every == 0:
        print(step, loss.item())


def summary(model, loader):
    return sum(model(x.to(device)).sum() for x, _ in loader)


def fit(model, loader, optimizer, criterion, every):
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        report(loss.detach(), step, every)
        if step % every == 0:
            print(summary(model, loader).item())
