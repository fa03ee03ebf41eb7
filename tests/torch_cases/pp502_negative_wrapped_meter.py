"""Metrics whose update keeps a host number or a detached copy, and one that counts what it is given."""

import horovod.torch as hvd
import torch
import torch.nn.functional as F


class Metric:
    def __init__(self, name):
        self.name = name
        self.sum = torch.tensor(0.0)
        self.n = torch.tensor(0.0)

    def update(self, val):
        self.sum += hvd.allreduce(val.detach().cpu(), name=self.name)
        self.n += 1


class Counter:
    def __init__(self):
        self.count = 0

    def update(self, val):
        self.count += len(val)


def train(model, optimizer, train_loader):
    train_loss = Metric("train_loss")
    seen = Counter()
    for data, target in train_loader:
        data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()
        train_loss.update(loss)
        seen.update(loss)
    return train_loss.sum.item() / seen.count
