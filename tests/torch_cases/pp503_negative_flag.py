"""A shared train/eval pass whose evaluation call runs under no_grad, directly or in a decorated caller."""

import torch


def run_epoch(model, loader, optimizer, device, train=True):
    total = 0.0
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.detach()
    return total


@torch.no_grad()
def validate(model, loader, device):
    return run_epoch(model, loader, None, device, train=False)


def fit(model, train_loader, val_loader, optimizer, device, epochs):
    for _ in range(epochs):
        model.train()
        run_epoch(model, train_loader, optimizer, device)
        model.eval()
        with torch.no_grad():
            run_epoch(model, val_loader, optimizer, device, train=False)
        validate(model, val_loader, device)


def attack_loop(model, loader, optimizer, device, train=True):
    for x, y in loader:
        x = x.to(device).requires_grad_(True)
        loss = torch.nn.functional.cross_entropy(model(x), y.to(device))
        grad = torch.autograd.grad(loss, x)[0]
        if train:
            optimizer.zero_grad()
            model(x + grad.sign()).sum().backward()
            optimizer.step()


def robustness(model, loader, device):
    attack_loop(model, loader, None, device, train=False)
