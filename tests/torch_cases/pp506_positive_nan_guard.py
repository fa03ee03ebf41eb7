# review 28 items 1, 2 and 12: copies on the normal path of a NaN test (the body of `if not torch.isnan(...)`,
# of `if torch.isfinite(...).all()`), an attribute `__init__` makes on the host read through `torch.as_tensor`,
# and an inference benchmark's Python 2 timing loop over `xrange`.
import time

import torch
import torch.nn as nn

device = torch.device("cuda")


def train_with_noise(model, loader, opt):
    # a noise augmentation on every step whose loss is a number: the normal path, not a fallback
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        if not torch.isnan(loss).any():  # expect: PP501 high
            noise = torch.randn(x.size(1)).to(device)  # expect: PP506 high
            loss = loss + ((model(x + noise) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def train_with_mask(model, loader, opt):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        if torch.isfinite(loss).all():  # expect: PP501 high
            mask = torch.ones(x.size(1)).to(device)  # expect: PP506 high
            loss = loss + (model(x * mask) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


class AnchorHead(nn.Module):
    # anchors kept on the host in `__init__`, read through `torch.as_tensor` and copied on every forward
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.anchors = torch.zeros(n, 2)

    def forward(self, x):
        anchors = torch.as_tensor(self.anchors).to(x.device)  # expect: PP506 medium
        return self.fc(x) + anchors


def benchmark(model):
    # a Python 2 inference benchmark: the timing loop copies a random image on purpose, so `low`
    times = []
    with torch.no_grad():
        for _ in xrange(2000):  # noqa: F821
            image = torch.randn(1, 3, 64, 64)
            start = time.time()
            image = image.cuda()  # expect: PP506 low
            model(image)
            times.append(time.time() - start)
    return times
