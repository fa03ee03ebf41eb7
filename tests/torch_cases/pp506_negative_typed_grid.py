"""`type_as` in a module that moves nothing to the GPU, outside any forward or loss: a box decoder for
a plotting script run once per image on the CPU, and a forward that makes its grid with `device=`."""

import torch
import torch.nn as nn


def decode_for_plot(x, in_h, in_w):
    grid_x = torch.linspace(0, in_w - 1, in_w).repeat(in_h, 1).view(x.shape).type_as(x)
    return x + grid_x


class YOLOHead(nn.Module):
    def __init__(self, conv):
        super().__init__()
        self.conv = conv

    def forward(self, feats):
        out = self.conv(feats)
        in_h, in_w = out.shape[-2:]
        grid_x = torch.linspace(0, in_w - 1, in_w, device=out.device).repeat(in_h, 1).type_as(out)
        return out + grid_x
