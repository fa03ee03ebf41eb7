"""A detector whose forward, outside training, returns a method decorated with no_grad."""

import torch
import torch.nn as nn


class YoloTiny(nn.Module):
    def __init__(self, num_classes, trainable=False):
        super().__init__()
        self.trainable = trainable
        self.stem = nn.Conv2d(3, 32, 3, padding=1)
        self.pred = nn.Conv2d(32, num_classes + 5, 1)

    @torch.no_grad()
    def decode(self, x):
        out = self.pred(self.stem(x))
        return out[:, :4], out[:, 4].sigmoid(), out[:, 5:].argmax(1)

    def forward(self, x, targets=None):
        if not self.trainable:
            return self.decode(x)
        out = self.pred(self.stem(x))
        return ((out - targets) ** 2).mean()
