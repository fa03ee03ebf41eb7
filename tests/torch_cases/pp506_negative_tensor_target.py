"""(torch-fix82) The clean twin of `pp506_positive_tensor_target.py`: the same tensors made on the target
tensor's device (`device=pred.device`), or made once in `__init__` as buffers, are no copy at all."""

import torch
import torch.nn as nn


class PairLoss(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("eye", torch.eye(n))

    def forward(self, pred, target):
        n = pred.size(0)
        loss = torch.zeros(1, device=pred.device, dtype=pred.dtype)
        mask = torch.ones(n, n, device=pred.device)
        ids = torch.arange(n, device=target.device)
        half = pred.to(torch.float16)
        return loss + (self.eye[:n, :n] * mask).sum() + ids.sum() + half.sum() + (pred - target).sum()
