"""torch-fix113: `loader_iter` is local to the training step and bound only in the handler, so `next()` fails
on every call and a new iterator of the loader (its workers, a new shuffle) is made on every step
(CSPN_monodepth's `train_iter`)."""

import torch


class Trainer:
    def __init__(self, model, optimizer, criterion, train_loader):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.train_loader = train_loader

    def train_iter(self, it):
        self.optimizer.zero_grad()
        try:
            input, target = next(loader_iter)  # noqa: F821
        except:  # noqa: E722
            loader_iter = iter(self.train_loader)  # expect: PP507 high
            input, target = next(loader_iter)
        input, target = input.to(torch.device("cuda")), target.cuda()
        loss = self.criterion(self.model(input), target)
        loss.backward()
        self.optimizer.step()
