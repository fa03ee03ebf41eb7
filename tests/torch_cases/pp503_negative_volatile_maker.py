"""PyTorch 0.3-era evaluation whose inputs a def or class of the module makes volatile (the no_grad of the
code's day): a helper that wraps its batches (HardNet's `test(loader, model, ...)` after `model.eval()` in
the epoch loop), a loader class that wraps its batches when told they are for evaluation, and a noise
maker handed to the forward."""

import torch
from torch.autograd import Variable


class BatchMaker:
    def __init__(self, data, evaluation=False):
        self.data, self.evaluation = data, evaluation

    def __iter__(self):
        for x, y in self.data:
            yield Variable(x, volatile=self.evaluation), Variable(y, volatile=self.evaluation)

    def get_batch(self, i):
        x, y = self.data[i]
        return Variable(x, volatile=self.evaluation), Variable(y, volatile=self.evaluation)


def make_noise(n, dim, evaluation):
    return Variable(torch.randn(n, dim), volatile=evaluation)


def test(loader, model, epoch):
    model.eval()
    scores = []
    for x, y in loader:
        out = model(Variable(x.cuda(), volatile=True))
        scores.append((out.data.max(1)[1].cpu() == y).float().mean())
    print(epoch, sum(scores) / len(scores))


def train_epoch(loader, model, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(Variable(x.cuda())), Variable(y.cuda())).backward()
        optimizer.step()


def fit(model, train_loader, test_loader, optimizer, epochs):
    for epoch in range(epochs):
        train_epoch(train_loader, model, optimizer)
        model.eval()
        test(test_loader, model, epoch)


val_data = BatchMaker(list(range(10)), evaluation=True)


def evaluate(model):
    model.eval()
    correct = 0
    for x, y in val_data:
        correct += (model(x).data.max(1)[1] == y.data).sum()
    return correct


def evaluate_batches(model, size):
    model.eval()
    correct = 0
    for i in range(size):
        x, y = val_data.get_batch(i)
        correct += (model(x).data.max(1)[1] == y.data).sum()
    return correct


def sample(generator, epochs):
    for epoch in range(epochs):
        generator.eval()
        images = generator(make_noise(64, 100, True))
        torch.save(images.data.cpu(), f"samples_{epoch}.pt")


def to_variable(x, cuda=True, volatile=False):
    return Variable(x.cuda() if cuda else x, volatile=volatile)


def evaluate_converted(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        x = to_variable(x, volatile=True)
        correct += (model(x).data.max(1)[1].cpu() == y).sum()
    return correct
