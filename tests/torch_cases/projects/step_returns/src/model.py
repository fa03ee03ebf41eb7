"""A Bayesian-network library's model class (hold-out 14's Bayesian-Neural-Networks, src/MC_dropout):
its `fit` runs one training step on the GPU and returns the loss and error count as device tensors."""

import numpy as np
import torch
import torch.nn.functional as F


def to_variable(var=(), cuda=True):
    return [v.cuda() if cuda else v for v in var]


class MC_drop_net:
    def __init__(self, model, lr=1e-3, cuda=True):
        self.cuda = cuda
        self.model = model
        if self.cuda:
            self.model.cuda()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.5)

    def fit(self, x, y):
        x, y = to_variable(var=(x, y.long()), cuda=self.cuda)
        self.optimizer.zero_grad()
        out = self.model(x)
        loss = F.cross_entropy(out, y, reduction="sum")
        loss.backward()
        self.optimizer.step()
        pred = out.data.max(dim=1, keepdim=False)[1]
        err = pred.ne(y.data).sum()
        return loss.data, err

    def get_nb_parameters(self):
        return np.sum(p.numel() for p in self.model.parameters())
