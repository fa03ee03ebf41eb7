"""A CUDA tensor type given the step's host data (labels from the loader) or a grid made with `device=`:
the first copy is needed, the second is none."""

import numpy as np
import torch
import torch.nn as nn


class YOLOLayer(nn.Module):
    def __init__(self, in_ch, n_anchors):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, n_anchors * 6, 1)

    def forward(self, xin, labels):
        output = self.conv(xin)
        fsize = output.shape[2]
        dtype = torch.cuda.FloatTensor if xin.is_cuda else torch.FloatTensor
        target = dtype(np.asarray(labels))
        x_shift = torch.arange(fsize, dtype=torch.float32, device=xin.device)
        return output + x_shift, target
