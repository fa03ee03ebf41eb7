# the reference engines' step (MAE, DeiT, ConvNeXt-V2, torchvision's detection engine): the loss read into
# `loss_value` every step only stops a diverged run and feeds the metric logger, so the read is for logging
import math
import sys

import torch


def train_one_epoch(model, criterion, data_loader, optimizer, device, metric_logger):
    model.train()
    for samples, targets in data_loader:
        samples = samples.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        loss = criterion(model(samples), targets)
        loss_value = loss.item()  # expect: PP501
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            sys.exit(1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        metric_logger.update(loss=loss_value)


model = torch.nn.Linear(10, 2).cuda()
