"""Near misses of a cache on first use: the `if` tests the key but its body never stores it (the mask is
rebuilt on every forward whose size is not the stem's), and a cache that `reset()` empties before every
batch is filled again on every forward.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class PartialConv(nn.Conv2d):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.stem_size = (1, 3, 256, 256)

    def forward(self, x, mask_in=None):
        if mask_in is None and self.stem_size != tuple(x.shape):
            mask = torch.ones(1, 1, x.shape[2], x.shape[3]).to(x)  # expect: PP506 high
        else:
            mask = mask_in
        return super().forward(x * mask)


class Normalised(nn.Module):
    def __init__(self, net, mean=(0.4914, 0.4822, 0.4465)):
        super().__init__()
        self.net = net
        self.mean = torch.tensor(mean).view(1, 3, 1, 1)
        self.mean_cuda = None

    def reset(self):
        self.mean_cuda = None

    def forward(self, x):
        if self.mean_cuda is None:
            self.mean_cuda = self.mean.cuda()  # expect: PP506
        return F.relu(self.net(x - self.mean_cuda))
