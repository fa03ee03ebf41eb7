"""The clean twin of wide_reads: the same kinds of defs, but an `evaluate` that runs its own loop over a
loader (an evaluation pass), `float()` of a plain number, a type test that the read is not under (the
argument is a float), a loop over a loader argument, and a dict helper the loop calls every 100 steps."""

import torch


class Result:
    def __init__(self):
        self.mse, self.count = 0.0, 0

    @torch.no_grad()
    def evaluate(self, model, loader):
        for images, depth in loader:
            self.mse += (model(images) - depth).pow(2).mean().item()

    def add(self, count):
        self.count = float(count)


class Accumulator:
    def __init__(self):
        self.loss = 0.0

    def update(self, loss, batches):
        if isinstance(loss, float):
            self.loss += loss
        for batch in batches:
            self.loss += batch.sum().item()


def to_floats(tensor_dict):
    return {key: tensor.item() for key, tensor in tensor_dict.items()}
