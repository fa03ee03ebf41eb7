"""PP501 (torch-fix129) negatives for per-parameter tests: a check every N steps (under a remainder), a
check of which parameters train (`p.requires_grad`, a Python bool, not a tensor), a check once after
training, and a loop over parameters whose test is no reduction of the parameter."""

import torch

device = torch.device("cuda")


def train(model, optimizer, criterion, loader, check_every):
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % check_every == 0:
            for p in model.parameters():
                if torch.isnan(p.grad).any():
                    raise RuntimeError("nan gradient")
        for name, p in model.named_parameters():
            if p.requires_grad and name.endswith("bias"):
                p.grad = None
    for p in model.parameters():
        if p.abs().max() == 0:
            print("a dead weight")
