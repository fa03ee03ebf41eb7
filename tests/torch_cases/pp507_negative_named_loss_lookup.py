"""PP507 negative: a loss class looked up by name once before the loop, and a class looked up by a name that
is no loss (an augmentation) applied to each batch."""

import torch.nn as nn


def train(args, model, loader, optimizer):
    criterion = eval(args.criterion)()
    for inputs, targets in loader:
        inputs, targets = inputs.cuda(), targets.cuda()
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_augmented(args, model, loader, optimizer):
    loss_fn = getattr(nn, args.loss)()
    for inputs, targets in loader:
        inputs = getattr(nn, args.augment)()(inputs.cuda())
        loss = loss_fn(model(inputs), targets.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
