"""Option branches that still hold a periodic read, and a boolean option (a debug switch the user turns on)."""

import torch


def train(args, loader, model, optimizer, criterion):
    for i, (x, y) in enumerate(loader):
        x, y = x.cuda(), y.cuda()
        if args.loss == "mse":
            loss = ((model(x) - y) ** 2).mean()
        else:
            loss = criterion(model(x), y)
            loss = loss + 0.01 * torch.linalg.vector_norm(model.weight)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if args.logger == "wandb":
            if i % args.log_every == 0:
                print(loss.item())
            print(i)
        if args.debug:
            print(loss.item())
        if args.scheduler == "plateau" and loss.item() < 0.1:
            break
