"""Reads in a def of the module that the training loop calls every step: a loss function that returns
`.item()` metrics, and a step function that returns `loss.item()` (hold-out 4: RAFT, WaveNet)."""

import torch

device = torch.device("cuda")


def flow_loss(preds, target, valid):
    err = ((preds - target) ** 2).sum(dim=1).sqrt()
    metrics = {"epe": err.mean().item(), "1px": (err < 1).float().mean().item()}  # expect: PP501
    return err[valid].mean(), metrics


def fit(model, loader, optimizer, logger):
    for images, flow, valid in loader:
        images, flow, valid = images.to(device), flow.to(device), valid.to(device)
        loss, metrics = flow_loss(model(images), flow, valid)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        logger.push(metrics)


def run_batch(model, optimizer, criterion, x, y):
    loss = criterion(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()  # expect: PP501


def run_epoch(model, loader, optimizer, criterion):
    total = 0.0
    for x, y in loader:
        total += run_batch(model, optimizer, criterion, x.to(device), y.to(device))
    return total / len(loader)
