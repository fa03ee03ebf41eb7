"""PP501 (torch-fix91): reads a training loop of another module runs every step, where the first pass over
called defs looked for none: `float()` of a reduction in a loopless `evaluate` method (the `Result.evaluate`
of the depth-completion trainers, hold-out 23), a type test of the argument (TAPE's
`MetricsAccumulator.update`, hold-out 24) and a loop over the argument's items (bet's `log_append`)."""

import torch


class Result:
    def __init__(self):
        self.mse, self.mae = 0.0, 0.0

    def evaluate(self, output, target):
        diff = (output - target).abs()
        self.mse = float(torch.pow(diff, 2).mean())  # expect: PP501
        self.mae = float(diff.mean())


class Accumulator:
    def __init__(self):
        self.loss, self.metrics = 0.0, {}

    def update(self, loss, metrics):
        if isinstance(loss, torch.Tensor):
            loss = loss.item()  # expect: PP501
        self.loss += loss
        for name, value in metrics.items():
            self.metrics[name] = self.metrics.get(name, 0.0) + value.item()


def to_floats(tensor_dict):
    return {key: tensor.item() for key, tensor in tensor_dict.items()}  # expect: PP501
