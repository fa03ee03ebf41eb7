"""PP502: a `with` block that binds only the step's loss does not reset the total kept across steps."""

import torch


def train(model, loader, optimizer, criterion, history):
    running = 0
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = criterion(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running = running + loss  # expect: PP502
    history.append(running)
