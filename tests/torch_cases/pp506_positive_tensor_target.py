"""(torch-fix82) Where PP506 would say `medium`, a copy whose target is a tensor at hand, in the spellings other
than `.to(x.device)`, outside any `if`, is `high`: `.to(pred)` (the tensor overload) and `.type_as(x)`.
`.to(device=x.device)`, `.to(x.device, dtype=...)`, `.to(self.gpu_id)`, `.to(local_rank)`, `.to(args.device)`
and such a copy under an option stay `medium`.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn


class PairLoss(nn.Module):
    def __init__(self, gpu_id, local_rank, args, use_prior=False):
        super().__init__()
        self.gpu_id = gpu_id
        self.local_rank = local_rank
        self.args = args
        self.use_prior = use_prior

    def forward(self, pred, target):
        n = pred.size(0)
        loss = torch.zeros(1).to(pred)  # expect: PP506 high
        eye = torch.eye(n).type_as(pred)  # expect: PP506 high
        mask = torch.ones(n, n).to(device=pred.device)  # expect: PP506 high
        ids = torch.arange(n).to(target.device, dtype=torch.long)  # expect: PP506 high
        window = torch.hann_window(n).to(self.gpu_id)  # expect: PP506 high
        ranks = torch.ones(n).to(self.local_rank)  # expect: PP506 high
        scale = torch.ones(n).to(self.args.device, dtype=torch.float16)  # expect: PP506 high
        if self.use_prior:
            prior = torch.ones(n).to(pred)  # expect: PP506 high
            loss = loss + prior.sum()
        return (
            loss
            + (eye * mask).sum()
            + ids.sum()
            + window.sum()
            + ranks.sum()
            + scale.sum()
            + (pred - target).sum()
        )
