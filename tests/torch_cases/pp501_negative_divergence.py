"""PP501: divergence checks that do not run every step, or read nothing from the device."""

import math

import torch


def train(model, loader, optimizer, device, log):
    for step, data in enumerate(loader):
        loss = model(data["units"].to(device), data["mel"].to(device))
        if step % 100 == 0 and torch.isnan(loss):
            raise ValueError("nan loss")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log.append(loss.detach())


def train_scaled(model, loader, optimizer, scale):
    for x, y in loader:
        loss = model(x.cuda(), y.cuda()) * scale
        if math.isnan(scale):
            raise ValueError("bad scale")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
