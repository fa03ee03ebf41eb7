"""torch-fix44 (tuned on hold-out 14): `t.type(value.type())` copies `t` to `value`'s device as
`t.type_as(value)` does; in a forward, or a def it runs, a host-made tensor so typed crosses every step
(first-order-model's equivariance `eye` and background `zeros`, flowtron's `dummy` frame).
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn


class GeneratorFullModel(nn.Module):
    def __init__(self, generator):
        super().__init__()
        self.generator = generator

    def forward(self, x, value):
        heatmap = self.heatmaps(self.generator(x))
        eye = torch.eye(2).view(1, 1, 2, 2).type(value.type())  # expect: PP506 high
        return torch.abs(eye - value).mean() + heatmap.mean()

    def heatmaps(self, heatmap):
        b, _, h, w = heatmap.shape
        zeros = torch.zeros(b, 1, h, w).type(heatmap.type())  # expect: PP506 high
        return torch.cat([zeros, heatmap], dim=1)


class Flow(nn.Module):
    def forward(self, mel, text):
        dummy = torch.FloatTensor(1, mel.size(1), mel.size(2)).zero_()
        dummy = dummy.type(mel.type())  # expect: PP506 high
        return torch.cat([dummy, mel[:-1, :, :]], 0) + text.mean()
