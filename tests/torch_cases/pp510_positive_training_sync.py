"""PP510's `high` class: `torch.cuda.synchronize()` written in a loop that steps an optimizer, right before a
host read too (torch-fix56: RepVGG's and SimMIM's meters); the other shapes stay `medium`."""

import math
import sys
import time

import torch


def train_one_epoch(model, criterion, data_loader, optimizer, loss_scaler, metric_logger, device):
    # a DeiT-style engine: the loss is read before backward; the wait after the step is for the logger only
    for samples, targets in data_loader:
        samples = samples.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        loss = criterion(model(samples), targets)
        loss_value = loss.item()  # expect: PP501
        if not math.isfinite(loss_value):
            sys.exit(1)
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, parameters=model.parameters())
        torch.cuda.synchronize()  # expect: PP510 high
        metric_logger.update(loss=loss_value)


def train_timed(model, train_dl, opt, device, log):
    # a CUDA-event timer around every step, under a test true on every step of a GPU run
    elapsed = 0.0
    for batch in train_dl:
        if device.type == "cuda":
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            torch.cuda.synchronize()  # expect: PP510 high
            start.record()
        losses = model.loss(batch.to(device))
        losses.mean().backward()
        opt.step()
        opt.zero_grad()
        log.append(losses.detach())
        if device.type == "cuda":
            end.record()
            torch.cuda.synchronize()  # expect: PP510 high
            elapsed += start.elapsed_time(end) / 1000


def train_meter(model, criterion, data_loader, optimizer, loss_meter, batch_time):
    # the `.item()` on the next line waits too, but for this step's kernels only: still a wait a step (high)
    end = time.time()
    for samples, targets in data_loader:
        samples, targets = samples.cuda(non_blocking=True), targets.cuda(non_blocking=True)
        loss = criterion(model(samples), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()  # expect: PP510 high
        loss_meter.update(loss.item(), targets.size(0))  # expect: PP501
        batch_time.update(time.time() - end)
        end = time.time()


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def train_profiled(model, loader, optimizer, device, profiler):
    # through a helper, and an empty_cache() in the step: medium
    for batch in loader:
        inputs = batch.to(device)
        sync(device)  # expect: PP510
        profiler.tick("data")
        loss = model(inputs).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.cuda.empty_cache()  # expect: PP510 high


def evaluate(model, data_loader, metric_logger):
    # an evaluation loop steps nothing: medium
    with torch.no_grad():
        for images, target in data_loader:
            output = model(images.cuda(non_blocking=True))
            torch.cuda.synchronize()  # expect: PP510
            metric_logger.update(acc=output.argmax(1).eq(target.cuda()).float().mean())
