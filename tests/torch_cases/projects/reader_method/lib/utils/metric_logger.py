"""Loggers and records a training loop feeds every step (graph-rcnn's MetricLogger, hold-out 15;
sparse-to-dense's Result, hold-out 14; simclr's tonp, hold-out 15)."""

import math
from collections import defaultdict, deque

import numpy as np
import torch


class SmoothedValue:
    def __init__(self, window_size=20):
        self.deque = deque(maxlen=window_size)
        self.total = 0.0
        self.count = 0

    def update(self, value):
        self.deque.append(value)
        self.count += 1
        self.total += value


class MetricLogger:
    def __init__(self, delimiter="\t"):
        self.meters = defaultdict(SmoothedValue)
        self.delimiter = delimiter

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            assert isinstance(v, (float, int))
            self.meters[k].update(v)


class Result:
    def __init__(self):
        self.mse = 0.0
        self.mae = 0.0

    def evaluate(self, output, target):
        valid_mask = target > 0
        output = output[valid_mask]
        target = target[valid_mask]
        abs_diff = (output - target).abs()
        self.mse = float((torch.pow(abs_diff, 2)).mean())
        self.rmse = math.sqrt(self.mse)
        self.mae = float(abs_diff.mean())


def tonp(x):
    if isinstance(x, (np.ndarray, float, int)):
        return np.array(x)
    return x.detach().cpu().numpy()
