"""A loss tracker (ALAE's tracker.py, hold-out 14): each tensor added is copied to the host."""

from collections import OrderedDict

import torch


class RunningMean:
    def __init__(self):
        self._mean = 0.0
        self.n = 0

    def __iadd__(self, value):
        self._mean = (value + self._mean * self.n) / (self.n + 1)
        self.n += 1
        return self


class RunningMeanTorch:
    def __init__(self):
        self.values = []

    def __iadd__(self, value):
        with torch.no_grad():
            self.values.append(value.detach().cpu().unsqueeze(0))
            return self

    def mean(self):
        return float(torch.cat(self.values).mean().item())


class LossTracker:
    def __init__(self):
        self.tracks = OrderedDict()

    def update(self, d):
        for k, v in d.items():
            if k not in self.tracks:
                self.tracks[k] = RunningMeanTorch() if isinstance(v, torch.Tensor) else RunningMean()
            self.tracks[k] += v
