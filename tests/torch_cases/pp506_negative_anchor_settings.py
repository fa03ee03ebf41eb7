"""torch-fix44: anchors loaded from a file in `__init__`, or a list the layer appends to as it runs, are
not settings made of Python alone: their copies are left alone."""

import numpy as np
import torch
import torch.nn as nn


class YOLOLayer(nn.Module):
    def __init__(self, anchor_file, in_ch):
        super().__init__()
        self.loaded_anchors = np.loadtxt(anchor_file)
        self.seen_anchors = [(1.0, 1.0)]
        self.conv = nn.Conv2d(in_ch, 255, 1)

    def forward(self, xin):
        output = self.conv(xin)
        dtype = torch.cuda.FloatTensor if xin.is_cuda else torch.FloatTensor
        loaded = np.array(self.loaded_anchors)
        w = dtype(np.broadcast_to(np.reshape(loaded[:, 0], (1, 3, 1, 1)), output.shape))
        self.seen_anchors.append((output.shape[2], output.shape[3]))
        seen = np.array(self.seen_anchors)
        h = dtype(np.broadcast_to(np.reshape(seen[:, 1], (1, -1, 1, 1)), output.shape))
        return output * w * h
