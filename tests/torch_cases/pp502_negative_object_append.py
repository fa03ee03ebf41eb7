"""torch-fix104: `append` on an instance of a meter class rather than a list (dml_cross_entropy's
`AverageMeter(device=device, length=n)`, whose `append` stores `val.detach()` in a preallocated tensor): what
it keeps is that class's business, not a list of graphs."""

import torch


def train(model, loader, optimizer, class_loss, AverageMeter):
    model.train()
    device = next(model.parameters()).device
    train_losses = AverageMeter(device=device, length=len(loader))
    for batch, labels in loader:
        batch, labels = batch.to(device), labels.to(device)
        logits = model(batch)
        loss = class_loss(logits, labels).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_losses.append(loss)
    return torch.stack(train_losses.values).mean()
