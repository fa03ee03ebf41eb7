"""torch-fix113: an iterator kept on `self` (or handed in) is made again only when the loader runs dry."""

import torch


class Trainer:
    def __init__(self, model, optimizer, criterion, train_loader):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.train_loader = train_loader
        self.loader_iter = iter(train_loader)

    def train_iter(self, it):
        self.optimizer.zero_grad()
        try:
            input, target = next(self.loader_iter)
        except StopIteration:
            self.loader_iter = iter(self.train_loader)
            input, target = next(self.loader_iter)
        input, target = input.to(torch.device("cuda")), target.cuda()
        loss = self.criterion(self.model(input), target)
        loss.backward()
        self.optimizer.step()

    def step_with(self, loader_iter):
        self.optimizer.zero_grad()
        try:
            input, target = next(loader_iter)
        except Exception:
            loader_iter = iter(self.train_loader)
            input, target = next(loader_iter)
        loss = self.criterion(self.model(input.cuda()), target.cuda())
        loss.backward()
        self.optimizer.step()
        return loader_iter

    def train_step(self):
        """review23 bug 3: the name is bound inside the `try` before `next()`, so the handler runs only when
        the kept iterator runs dry."""
        self.optimizer.zero_grad()
        try:
            loader_iter = self.loader_iter
            input, target = next(loader_iter)
        except Exception:
            loader_iter = iter(self.train_loader)
            self.loader_iter = loader_iter
            input, target = next(loader_iter)
        loss = self.criterion(self.model(input.cuda()), target.cuda())
        loss.backward()
        self.optimizer.step()
