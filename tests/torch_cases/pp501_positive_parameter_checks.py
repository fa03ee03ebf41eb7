"""PP501 (torch-fix129): a test of each parameter or its gradient inside a loop over the model's parameters
that runs on every step. A point-cloud trainer skips a step whose loss is NaN, and in the other branch
checks every gradient with `if x.grad.ne(x.grad).any():` before stepping (SimpleView's `main.py`, hold-out
29); an experiment builder's `run_train_iter` raises when a weight vanished,
`if p.abs().max() < 10 ** (-30):` for every weight after every step (hold-out 35). Python takes the truth
of a device tensor once per parameter: the step waits for the GPU that many times."""

import torch

device = torch.device("cuda")


def train(model, optimizer, criterion, loader):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        bad_grad = False
        for p in model.parameters():
            if p.grad is not None and p.grad.ne(p.grad).any():  # expect: PP501
                bad_grad = True
                break
        if not bad_grad:
            optimizer.step()


class ExperimentBuilder:
    def __init__(self, model, optimizer, criterion, loader):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.criterion = criterion
        self.loader = loader

    def run_train_iter(self, x, y):
        self.model.train()
        x, y = x.to(device), y.to(device)
        loss = self.criterion(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        for n, p in self.model.named_parameters():
            if p.requires_grad and "bias" not in n and p.abs().max() < 10 ** (-30):  # expect: PP501
                raise Exception("Weights smaller than 10e-30")
        return loss.detach()

    def run_experiment(self, epochs):
        losses = []
        for _epoch in range(epochs):
            for x, y in self.loader:
                losses.append(self.run_train_iter(x, y))
        return losses
