"""pp503_negative_volatile_maker.py's evaluations with makers that wrap nothing volatile: each is reported, at
medium since torch-fix97 (the module's converters pass `volatile=volatile`: PyTorch 0.3-era code)."""

import torch
from torch.autograd import Variable


class BatchMaker:
    def __init__(self, data, evaluation=False):
        self.data, self.evaluation = data, evaluation

    def __iter__(self):
        for x, y in self.data:
            yield Variable(x, requires_grad=False), Variable(y, requires_grad=False)

    def get_batch(self, i):
        x, y = self.data[i]
        return Variable(x, requires_grad=False), Variable(y, requires_grad=False)


def make_noise(n, dim, evaluation):
    return Variable(torch.randn(n, dim), requires_grad=False)


def test(loader, model, epoch):
    model.eval()
    scores = []
    for x, y in loader:
        out = model(Variable(x.cuda()))  # expect: PP503 medium
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
        test(test_loader, model, epoch)  # expect: PP503 medium


val_data = BatchMaker(list(range(10)), evaluation=True)


def evaluate(model):
    model.eval()
    correct = 0
    for x, y in val_data:
        correct += (model(x).data.max(1)[1] == y.data).sum()  # expect: PP503 medium
    return correct


def evaluate_batches(model, size):
    model.eval()
    correct = 0
    for i in range(size):
        x, y = val_data.get_batch(i)
        correct += (model(x).data.max(1)[1] == y.data).sum()  # expect: PP503 medium
    return correct


def sample(generator, epochs):
    for epoch in range(epochs):
        generator.eval()
        images = generator(make_noise(64, 100, True))  # expect: PP503 medium
        torch.save(images.data.cpu(), f"samples_{epoch}.pt")


def to_variable(x, cuda=True, volatile=False):
    return Variable(x.cuda() if cuda else x, volatile=volatile)


def evaluate_converted(model, loader):
    """Bayesian-Neural-Networks' shape: the converter can make volatile inputs, but this call keeps the
    default (False)."""
    model.eval()
    correct = 0
    for x, y in loader:
        x = to_variable(x)
        correct += (model(x).data.max(1)[1].cpu() == y).sum()  # expect: PP503 medium
    return correct


def evaluate_wrapped(model, loader):
    """The same converter called inside the forward's argument, still with its default."""
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(to_variable(x)).data.max(1)[1].cpu() == y).sum()  # expect: PP503 medium
    return correct


def to_cuda_variable(x, *, volatile=False):
    return Variable(x.cuda(), volatile=volatile)


def evaluate_keyword_only(model, loader):
    """A converter whose `volatile` is keyword-only, called without it: its default (False)."""
    model.eval()
    correct = 0
    for x, y in loader:
        x = to_cuda_variable(x)
        correct += (model(x).data.max(1)[1].cpu() == y).sum()  # expect: PP503 medium
    return correct
