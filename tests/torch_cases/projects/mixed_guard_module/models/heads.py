"""Two heads in one module: the detection head guards its own inference, the segmentation head does not."""

import torch
import torch.nn as nn


class DetectionHead(nn.Module):
    def __init__(self, channels, num_classes):
        super().__init__()
        self.conv = nn.Conv2d(channels, num_classes + 4, 1)

    @torch.no_grad()
    def predict(self, feats):
        out = self.conv(feats)
        return out[:, :4], out[:, 4:].softmax(1)

    def forward(self, feats):
        return self.predict(feats)


class SegmentationHead(nn.Module):
    def __init__(self, channels, num_classes):
        super().__init__()
        self.conv = nn.Conv2d(channels, num_classes, 1)
        self.up = nn.Upsample(scale_factor=4, mode="bilinear")

    def forward(self, feats):
        return self.up(self.conv(feats))
