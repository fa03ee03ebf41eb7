"""An evaluation def that one caller runs under no_grad and the other does not."""

import torch


def top1_error(model, loader, device):
    model.eval()
    wrong, seen = torch.zeros((), device=device), 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        wrong += (logits.argmax(1) != labels).sum()
        seen += labels.numel()
    model.train()
    return (wrong / seen).item()
