"""PP501: evaluation loops whose per-batch reads are not reported."""

import torch

device = torch.device("cuda")


def validate_few(model, loader, criterion):
    # stops after three batches: its enumerate counter breaks the loop (review 24 item 7)
    total = 0.0
    with torch.no_grad():
        for i, (x, y) in enumerate(loader):
            if i > 2:
                break
            total += criterion(model(x.to(device)), y.to(device)).item()
    return total


def validate(model, loader, meter):
    # reads every tenth batch only
    with torch.no_grad():
        for i, (x, y) in enumerate(loader):
            out = model(x.to(device))
            if i % 10 == 0:
                meter.update((out.argmax(1) == y.to(device)).float().mean().item())


def evaluate_with_training(model, loader, optimizer, criterion):
    # a loop that steps is a training loop, judged by the rule's training-loop terms
    for x, y in loader:
        loss = criterion(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
