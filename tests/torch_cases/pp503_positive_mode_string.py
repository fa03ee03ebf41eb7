"""A def that trains or evaluates by a string mode (`if mode == "train":` guards its backward and step), called
with another mode outside no_grad (torch-fix87): the validation pass records a graph of every batch."""

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
        score = iterate("val", val_loader, model, None, device)  # expect: PP503 medium
        best = score if best is None else min(best, score)
    return best


def main_unfrozen(model, optimizer, train_loader, val_loader, device, epochs):
    scores = []
    for _epoch in range(epochs):
        for p in model.parameters():
            p.requires_grad = False
        for p in model.parameters():
            p.requires_grad = True
        iterate("train", train_loader, model, optimizer, device)
        scores.append(iterate("val", val_loader, model, None, device))  # expect: PP503 medium
    return scores
