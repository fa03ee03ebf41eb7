import os
import os as _os
from os import makedirs

import torch
import torch.nn as nn


def train(args, loader, model, optimizer, smoothing_loss):
    best = 0.0
    for i, batch in enumerate(loader):
        x = batch["x"].cuda(non_blocking=True)
        y = batch["y"].cuda(non_blocking=True)
        if args.label_smooth:  # noqa: SIM108
            loss_fn = smoothing_loss
        else:
            loss_fn = nn.CrossEntropyLoss()  # expect: PP507 high
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i == len(loader) - 1 or i == 0:
            acc = evaluate(model)
            if acc > best:
                folder = _os.path.split(args.save_prefix)[0]
                if not _os.path.exists(folder):
                    makedirs(folder)
                torch.save(model.state_dict(), args.save_prefix)
                best = acc


def train_renamed(args, loader, model, optimizer, smoothing_loss):
    best = 0.0
    for i, batch in enumerate(loader):
        x = batch["x"].cuda(non_blocking=True)
        y = batch["y"].cuda(non_blocking=True)
        if args.label_smooth:  # noqa: SIM108
            loss_fn = smoothing_loss
        else:
            loss_fn = nn.CrossEntropyLoss()  # expect: PP507 high
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i == len(loader) - 1 or i == 0:
            acc = evaluate(model)
            if acc > best:
                folder = _os.path.split(args.save_prefix)[0]
                if not _os.path.exists(folder):
                    _os.makedirs(folder)
                torch.save(model.state_dict(), args.save_prefix)
                best = acc


def train_plain(args, loader, model, optimizer, smoothing_loss):
    best = 0.0
    for i, batch in enumerate(loader):
        x = batch["x"].cuda(non_blocking=True)
        y = batch["y"].cuda(non_blocking=True)
        if args.label_smooth:  # noqa: SIM108
            loss_fn = smoothing_loss
        else:
            loss_fn = nn.CrossEntropyLoss()  # expect: PP507 high
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i == len(loader) - 1 or i == 0:
            acc = evaluate(model)
            if acc > best:
                folder = os.path.split(args.save_prefix)[0]
                if not os.path.exists(folder):
                    os.makedirs(folder)
                torch.save(model.state_dict(), args.save_prefix)
                best = acc


def evaluate(model):
    return 1.0
