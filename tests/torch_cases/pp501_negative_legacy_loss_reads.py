"""PP501 (torch-fix127), silent: `.data[0]` of a name that is not a loss (the first row of a batch's
targets, indexed on the device), a `train_batch` that steps nothing (an evaluation's), and a loss read only
under a logging switch of the def."""

import pandas as pd
import torch
import torch.nn.functional as F

device = torch.device("cuda")
detector = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.SGD(detector.parameters(), lr=0.1)


def train(loader):
    for inputs, targets in loader:
        inputs, targets = inputs.cuda(), targets.cuda()
        first = targets.data[0]
        out = detector(inputs * first)
        loss = F.cross_entropy(out, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def val_epoch(loader):
    rows = []
    for _b, batch in enumerate(loader):
        rows.append(val_batch(batch))
    return rows


def val_batch(b):
    with torch.no_grad():
        result = detector(b[0].cuda())
    losses = {"class_loss": F.cross_entropy(result, b[1].cuda())}
    return pd.Series({x: y.data[0] for x, y in losses.items()})


def train_epoch(loader, verbose=False):
    for _b, batch in enumerate(loader):
        train_batch(batch, verbose)


def train_batch(b, verbose):
    result = detector(b[0].cuda())
    losses = {"class_loss": F.cross_entropy(result, b[1].cuda())}
    loss = sum(losses.values())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if verbose:
        print(pd.Series({x: y.data[0] for x, y in losses.items()}))
