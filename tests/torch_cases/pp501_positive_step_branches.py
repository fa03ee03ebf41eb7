"""Reads in a branch that runs every training step: the branch that holds the step itself (skip a degenerate
batch, else train), and an `if ... else` whose both branches read."""

import torch


def train(model, device, loader, optimizer, criterion, args):
    loss_list = []
    for batch in loader:
        batch = batch.to(device)
        if batch.x.shape[0] == 1:
            pass
        else:
            optimizer.zero_grad()
            loss = criterion(model(batch), batch.y)
            loss.backward()
            optimizer.step()
            loss_list.append(loss.item())  # expect: PP501
    return sum(loss_list) / len(loss_list)


def train_chunks(model, loader, optimizer, args):
    train_loss = 0.0
    for data, target in loader:
        data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        if args.batch_chunk > 1:
            for data_i, target_i in zip(
                data.chunk(args.batch_chunk), target.chunk(args.batch_chunk), strict=True
            ):
                loss = model(data_i, target_i).mean() / args.batch_chunk
                loss.backward()
                train_loss += loss.float().item()  # expect: PP501
        else:
            loss = model(data, target).mean()
            loss.backward()
            train_loss += loss.float().item()  # expect: PP501
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optimizer.step()
    return train_loss
