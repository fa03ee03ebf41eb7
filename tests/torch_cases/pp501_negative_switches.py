"""Configuration switches that come with a periodic guard, or a switch the loop itself sets each step."""

import torch


def train(args, model, train_loader, optimizer, criterion, writer, scaler):
    for i, (x, y) in enumerate(train_loader):
        x, y = x.to(args.device), y.to(args.device)
        with torch.autocast("cuda", enabled=args.use_amp):
            loss = criterion(model(x), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        if args.use_tensorboard and i % args.log_every == 0:
            writer.add_scalar("loss", loss.item(), i)
        log_now = i % 50 == 0
        if log_now:
            print(f"step {i}: {loss.item():.4f}")
        if args.use_wandb:
            if i % 100 == 0:
                writer.add_scalar("loss", loss.item(), i)
            writer.add_scalar("lr", optimizer.param_groups[0]["lr"], i)
