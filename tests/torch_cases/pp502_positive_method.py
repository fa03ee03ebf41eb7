"""A model class that runs its own training step and returns the loss it back-propagated (a course's lab)."""

import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(784, 10)
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(self.parameters(), lr=0.001)

    def forward(self, x):
        return self.layer(x)

    def train_model(self, x, y):
        self.optimizer.zero_grad()
        self.cost = self.criterion(self.forward(x), y)
        self.cost.backward()
        self.optimizer.step()
        return self.cost


def fit(loader, epochs, batches):
    model = Net().to(device)
    for _ in range(epochs):
        avg_cost = 0
        for x, y in loader:
            cost = model.train_model(x.to(device), y.to(device))
            avg_cost += cost / batches  # expect: PP502
        print(avg_cost)


def fit_ensemble(models, loader, epochs, batches):
    for _ in range(epochs):
        costs = np.zeros(len(models))  # a NumPy array stores floats, not graphs
        for x, y in loader:
            for k, model in enumerate(models):
                cost = model.train_model(x.to(device), y.to(device))
                # (but storing the device loss in it reads it on the host: PP501, since torch-fix76 takes
                # the loop, which steps through `train_model`, for one that updates weights)
                costs[k] += cost / batches  # expect: PP501
        print(costs.mean())
