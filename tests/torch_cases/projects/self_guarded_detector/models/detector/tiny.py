"""A detector whose forward, outside training, returns a method decorated with no_grad."""

import torch
import torch.nn as nn


class TinyDetector(nn.Module):
    def __init__(self, num_classes, trainable=False):
        super().__init__()
        self.trainable = trainable
        self.backbone = nn.Conv2d(3, 16, 3)
        self.head = nn.Conv2d(16, num_classes + 4, 1)

    @torch.no_grad()
    def inference_single_image(self, x):
        out = self.head(self.backbone(x))
        return out[:, :4], out[:, 4:].sigmoid(), out[:, 4:].argmax(1)

    def forward(self, x, targets=None):
        if not self.trainable:
            return self.inference_single_image(x)
        out = self.head(self.backbone(x))
        return ((out - targets) ** 2).mean()
