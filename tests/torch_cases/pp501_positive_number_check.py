"""PP501 (torch-fix62): a project's own check that the loss is a usable number, in the test of the `if` that
guards the optimizer step (`if is_valid_number(loss.item()):`, the SiamMask/TracKit/pysot trackers' trainers),
reads the loss on the host every step like `torch.isnan(loss)` does: the loop is judged, not skipped as one
whose logic needs the value."""

import math

import torch


def is_valid_number(x):
    return not (math.isnan(x) or math.isinf(x) or x > 1e4)


def train(model, loader, optimizer, meter):
    model = model.cuda()
    for template, search, label in loader:
        outputs = model(template.cuda(), search.cuda(), label.cuda())
        loss = torch.mean(outputs["losses"])
        optimizer.zero_grad()
        loss.backward()
        if is_valid_number(loss.item()):
            optimizer.step()
        meter.update(loss=loss.item())  # expect: PP501 high


def train_only_guarded(model, loader, optimizer):
    model = model.cuda()
    for template, search, label in loader:
        loss = model(template.cuda(), search.cuda(), label.cuda())
        optimizer.zero_grad()
        loss.backward()
        if is_valid_number(loss.item()):  # expect: PP501 high
            optimizer.step()
