"""A package's helpers, imported by a module of the same package with `from . import utils`."""

import torch


def to_scalar(var):
    """change the first element of a tensor to scalar"""
    return var.view(-1).data.tolist()[0]


def to_np(x):
    return x.data.cpu().numpy()


def adjust_learning_rate(optimizer, lr):
    for group in optimizer.param_groups:
        group["lr"] = lr


def init_embedding(weight):
    bias = torch.sqrt(torch.tensor(3.0 / weight.size(1)))
    torch.nn.init.uniform_(weight, -bias, bias)
