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


def train_with_extra(model, loader, optimizer, args):
    extra_losses = []
    for data, target in loader:
        data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        loss, extra = model(data, target)
        if torch.rand(()) < args.extra_freq:
            (loss + extra * args.extra_weight).backward()
            extra_losses.append(extra.item())
        else:
            loss.backward()
        optimizer.step()
    return extra_losses
