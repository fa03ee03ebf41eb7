"""torch-fix44 (tuned on hold-out 15): DeNA's YOLO layer also broadcasts its anchors, a list `__init__`
computes from the configuration with Python alone (`[self.all_anchors_grid[i] for i in self.anch_mask]`),
to the feature map's shape and hands them to the CUDA tensor type on every forward: settings, the same
grid every step of a scale.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import numpy as np
import torch
import torch.nn as nn


class YOLOLayer(nn.Module):
    def __init__(self, config_model, layer_no, in_ch):
        super().__init__()
        strides = [32, 16, 8]
        self.anchors = config_model["ANCHORS"]
        self.anch_mask = config_model["ANCH_MASK"][layer_no]
        self.n_anchors = len(self.anch_mask)
        self.stride = strides[layer_no]
        self.all_anchors_grid = [(w / self.stride, h / self.stride) for w, h in self.anchors]
        self.masked_anchors = [self.all_anchors_grid[i] for i in self.anch_mask]
        self.conv = nn.Conv2d(in_ch, self.n_anchors * 85, 1)

    def forward(self, xin):
        output = self.conv(xin)
        batchsize, fsize = output.shape[0], output.shape[2]
        dtype = torch.cuda.FloatTensor if xin.is_cuda else torch.FloatTensor
        output = output.view(batchsize, self.n_anchors, 85, fsize, fsize).permute(0, 1, 3, 4, 2)
        masked_anchors = np.array(self.masked_anchors)
        w_anchors = dtype(  # expect: PP506 high
            np.broadcast_to(np.reshape(masked_anchors[:, 0], (1, self.n_anchors, 1, 1)), output.shape[:4])
        )
        return torch.exp(output[..., 2]) * w_anchors
