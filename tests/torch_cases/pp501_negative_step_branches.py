"""Reads in one branch only, or in the branch of a remainder test that also steps: not every step."""

import torch


def train(model, device, loader, optimizer, criterion, args):
    total = torch.zeros((), device=device)
    for step, batch in enumerate(loader):
        batch = batch.to(device)
        loss = criterion(model(batch), batch.y) / args.accum
        loss.backward()
        total += loss.detach()
        if (step + 1) % args.log_every == 0:
            optimizer.step()
            optimizer.zero_grad()
            print(total.item())
        if args.check:
            print(loss.item())
        else:
            pass
    return total
