"""A metric whose update averages its value across workers as it is (horovod's ImageNet example): the sum
holds every step's loss with its graph."""

import horovod.torch as hvd
import torch
import torch.nn.functional as F


class Metric:
    def __init__(self, name):
        self.name = name
        self.sum = torch.tensor(0.0)
        self.n = torch.tensor(0.0)

    def update(self, val):
        self.sum += hvd.allreduce(val.cpu(), name=self.name)
        self.n += 1

    @property
    def avg(self):
        return self.sum / self.n


def train(model, optimizer, train_loader):
    model.train()
    train_loss = Metric("train_loss")
    for data, target in train_loader:
        data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()
        train_loss.update(loss)  # expect: PP502
    return train_loss.avg.item()
