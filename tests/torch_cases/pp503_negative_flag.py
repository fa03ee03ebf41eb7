"""A shared train/eval pass whose evaluation call runs under no_grad, directly or in a decorated caller."""

import torch


def run_epoch(model, loader, optimizer, device, train=True):
    total = 0.0
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.detach()
    return total


@torch.no_grad()
def validate(model, loader, device):
    return run_epoch(model, loader, None, device, train=False)


def fit(model, train_loader, val_loader, optimizer, device, epochs):
    for _ in range(epochs):
        model.train()
        run_epoch(model, train_loader, optimizer, device)
        model.eval()
        with torch.no_grad():
            run_epoch(model, val_loader, optimizer, device, train=False)
        validate(model, val_loader, device)


def attack_loop(model, loader, optimizer, device, train=True):
    for x, y in loader:
        x = x.to(device).requires_grad_(True)
        loss = torch.nn.functional.cross_entropy(model(x), y.to(device))
        grad = torch.autograd.grad(loss, x)[0]
        if train:
            optimizer.zero_grad()
            model(x + grad.sign()).sum().backward()
            optimizer.step()


def robustness(model, loader, device):
    attack_loop(model, loader, None, device, train=False)


class Solver:
    """Conv-TasNet's shape with its validation pass under no_grad, and a training call that keeps the
    default."""

    def __init__(self, model, tr_loader, cv_loader, optimizer):
        self.model = model
        self.tr_loader, self.cv_loader = tr_loader, cv_loader
        self.optimizer = optimizer

    def train(self, epochs):
        for epoch in range(epochs):
            self.model.train()
            self._run_one_epoch(epoch, cross_valid=False)
            self.model.eval()
            with torch.no_grad():
                self._run_one_epoch(epoch, cross_valid=True)

    def _run_one_epoch(self, epoch, cross_valid=False):
        data_loader = self.tr_loader if not cross_valid else self.cv_loader
        for mixture, source in data_loader:
            loss = torch.nn.functional.mse_loss(self.model(mixture.cuda()), source.cuda())
            if not cross_valid:
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()


def loop_dataset(graphs, classifier, idxes, optimizer=None):
    for i in idxes:
        logits, loss, acc = classifier([graphs[i]])
        if optimizer is not None:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def fit_graphs(classifier, graphs, optimizer, epochs):
    for _ in range(epochs):
        loop_dataset(graphs, classifier, list(range(len(graphs))), optimizer=optimizer)
        loop_dataset(graphs, classifier, list(range(len(graphs))), optimizer)


def rank_epoch(net, batches, optimizer=None):
    """pytorch-ssd's pruner: the backward runs on every call (its gradients rank the filters); only the
    step waits for an optimizer."""
    for inputs, labels in batches:
        loss = torch.nn.functional.cross_entropy(net(inputs.cuda()), labels.cuda())
        loss.backward()
        if optimizer:
            optimizer.step()


def prune(net, batches):
    rank_epoch(net, batches)


class Finetuner:
    """TCP's shape: both branches of `if rank_filters:` backpropagate, so neither value evaluates."""

    def __init__(self, model, prunner, loader, optimizer):
        self.model, self.prunner, self.loader, self.optimizer = model, prunner, loader, optimizer

    def train_epoch(self, rank_filters=False):
        for data, label in self.loader:
            if rank_filters:
                loss = torch.nn.functional.nll_loss(self.prunner.forward(data.cuda()), label.cuda())
                loss.backward()
            else:
                loss = torch.nn.functional.nll_loss(self.model(data.cuda()), label.cuda())
                loss.backward()
                self.optimizer.step()

    def train(self, epochs):
        for _ in range(epochs):
            self.train_epoch()

    def candidates(self):
        self.train_epoch(rank_filters=True)
