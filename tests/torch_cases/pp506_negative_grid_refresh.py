"""A detection head rebuilds each level's grid on the host and moves it only when the feature map's size
differs from the cached grid's, or when a flag asks for it (YOLOv5's `Detect`, FairMOT, hold-out 16): a
cache refresh, not a copy on every forward, even in the loop over the head's levels."""

import torch
import torch.nn as nn


class Detect(nn.Module):
    def __init__(self, nc, anchors, ch):
        super().__init__()
        self.no = nc + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.grid = [torch.zeros(1)] * self.nl
        self.onnx_dynamic = False
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)

    @staticmethod
    def _make_grid(nx, ny):
        yv, xv = torch.meshgrid([torch.arange(ny), torch.arange(nx)])
        return torch.stack((xv, yv), 2).view((1, 1, ny, nx, 2)).float()

    def forward(self, x):
        z = []
        for i in range(self.nl):
            x[i] = self.m[i](x[i])
            bs, _, ny, nx = x[i].shape
            x[i] = x[i].view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
            if not self.training:
                if self.grid[i].shape[2:4] != x[i].shape[2:4] or self.onnx_dynamic:
                    self.grid[i] = self._make_grid(nx, ny).to(x[i].device)
                z.append((x[i].sigmoid()[..., 0:2] + self.grid[i]).view(bs, -1, 2))
        return x if self.training else torch.cat(z, 1)
