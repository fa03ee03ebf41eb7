"""Twin of pp503_positive_mode_string.py: the validation call runs under no_grad, and a call with the
training mode trains (torch-fix87)."""

import torch


def iterate(mode, loader, model, optimizer, device):
    if mode == "train":
        model.train()
    else:
        model.eval()
    losses = []
    for batch in loader:
        batch = {key: val.to(device) for key, val in batch.items()}
        pred = model(batch)
        loss = ((pred - batch["gt"]) ** 2).mean()
        if mode == "train":
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        losses.append(loss.detach())
    return torch.stack(losses).mean()


def main(model, optimizer, train_loader, val_loader, device, epochs):
    best = None
    for _epoch in range(epochs):
        iterate("train", train_loader, model, optimizer, device)
        with torch.no_grad():
            score = iterate("val", val_loader, model, None, device)
        best = score if best is None else min(best, score)
    return best


def main_frozen(model, optimizer, train_loader, val_loader, device, epochs):
    scores = []
    for _epoch in range(epochs):
        iterate("train", train_loader, model, optimizer, device)
        for p in model.parameters():
            p.requires_grad = False
        scores.append(iterate("val", val_loader, model, None, device))
        for p in model.parameters():
            p.requires_grad = True
    return scores
