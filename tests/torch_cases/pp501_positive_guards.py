"""Per-step reads next to a NaN check, and a loop whose backward runs in a scaler object (hold-out 3 misses)."""

import numpy as np
import torch

device = torch.device("cuda")


def train(model, loader, optimizer, criterion, losses):
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        if np.isnan(loss.item()):
            raise RuntimeError("diverged")
        losses.update(loss.item(), x.size(0))  # expect: PP501
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_one_epoch(model, loader, optimizer, criterion, loss_scaler, meter):
    for images, targets in loader:
        images, targets = images.cuda(non_blocking=True), targets.cuda(non_blocking=True)
        with torch.cuda.amp.autocast():
            loss = criterion(model(images), targets)
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, clip_grad=5.0, parameters=model.parameters())
        meter.update(loss.item(), targets.size(0))  # expect: PP501
