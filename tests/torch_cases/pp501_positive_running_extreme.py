"""PP501 (torch-fix127): `loss = loss.item()` every step whose value only feeds a running total, a
TensorBoard scalar and the epoch's worst loss (saltnet's `train.py`, hold-out 39: `if worst_loss > loss:
worst_loss = loss; visualize_output = True`). Keeping a running worst is a statistic for the log like a
running total, so the read is reported at the `.item()`, not at the scalar of the host number it became."""

import torch

device = torch.device("cuda")


def train(model, optimizer, criterion, loader, writer, global_step):
    running_loss = 0.0
    worst_loss = float("-inf")
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        logit = model(inputs)
        loss = criterion(logit, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        global_step += 1
        loss = loss.item()  # expect: PP501
        running_loss += loss * targets.size(0)
        writer.add_scalar("train/loss", loss, global_step)
        visualize_output = False
        if worst_loss > loss:
            worst_loss = loss
            visualize_output = True
        if visualize_output:
            writer.add_images("worst", inputs, global_step)
    return running_loss, worst_loss
