"""A YOLO layer's forward, every step and scale: the cell offsets are numpy grids of the feature map's size
(`np.broadcast_to(np.arange(fsize), output.shape[:4])`) handed to a CUDA tensor type picked by
`xin.is_cuda`, which copies them to the GPU (DeNA's PyTorch_YOLOv3).
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import numpy as np
import torch
import torch.nn as nn


class YOLOLayer(nn.Module):
    def __init__(self, in_ch, n_anchors, n_classes):
        super().__init__()
        self.n_anchors, self.n_classes = n_anchors, n_classes
        self.conv = nn.Conv2d(in_ch, n_anchors * (n_classes + 5), 1)

    def forward(self, xin):
        output = self.conv(xin)
        batchsize = output.shape[0]
        fsize = output.shape[2]
        n_ch = 5 + self.n_classes
        dtype = torch.cuda.FloatTensor if xin.is_cuda else torch.FloatTensor
        output = output.view(batchsize, self.n_anchors, n_ch, fsize, fsize).permute(0, 1, 3, 4, 2)
        grid = np.broadcast_to(np.arange(fsize, dtype=np.float32), output.shape[:4])
        x_shift = dtype(grid)  # expect: PP506 high
        return output[..., 0] + x_shift
