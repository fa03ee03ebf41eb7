"""A notebook's model class with its own training step (`fit`: backward and an optimizer step) that returns
the summed loss and error count as tensors; the loop stores them into NumPy arrays every batch, which
reads each on the host (hold-out 14's Bayesian-Neural-Networks notebooks: `err_train[i] += err`)."""

import numpy as np
import torch
import torch.nn.functional as F


class Net:
    def __init__(self, model, lr=1e-3, cuda=True):
        self.cuda = cuda
        self.model = model
        if self.cuda:
            self.model.cuda()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.5)

    def fit(self, x, y):
        if self.cuda:
            x, y = x.cuda(), y.cuda()
        self.optimizer.zero_grad()
        out = self.model(x)
        loss = F.cross_entropy(out, y, reduction="sum")
        loss.backward()
        self.optimizer.step()
        pred = out.data.max(dim=1, keepdim=False)[1]
        err = pred.ne(y.data).sum()
        return loss.data, err


def train(model, trainloader, nb_epochs):
    net = Net(model, cuda=torch.cuda.is_available())
    cost_train = np.zeros(nb_epochs)
    err_train = np.zeros(nb_epochs)
    for i in range(nb_epochs):
        nb_samples = 0
        for x, y in trainloader:
            cost, err = net.fit(x, y)
            err_train[i] += err  # expect: PP501
            cost_train[i] += cost
            nb_samples += len(x)
        err_train[i] /= nb_samples
    return cost_train, err_train


def train_direct(model, loader, optimizer, nb_epochs):
    model.cuda()
    train_loss = np.zeros(nb_epochs)
    for epoch in range(nb_epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            train_loss[epoch] += loss.detach()  # expect: PP501
    return train_loss
