"""(torch-fix54) Where PP506 would say `medium`, a copy to the device of a tensor at hand (`.to(x.device)`,
`.to(proposal.boxes.device)`) outside any `if` is `high`, and so is a `.cuda()` whose only `if` asks whether a
GPU is in use (`torch.cuda.is_available()`, `x.is_cuda`); `.to(self.device)`, `.to(args.device)`, a
`.to(x.device)` under an option and a `.cuda()` under a user's flag stay `medium`. A cast on the way
(`.to(torch.float32)`) keeps the tensor on the host.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import numpy as np
import torch
import torch.nn as nn


class RelationHead(nn.Module):
    def __init__(self, dim, args, use_gpu=True, use_prior=False):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.args = args
        self.use_gpu = use_gpu
        self.use_prior = use_prior
        self.device = torch.device("cuda")

    def forward(self, feats, proposals):
        n = feats.size(0)
        eye = torch.eye(n).to(feats.device)  # expect: PP506 high
        for proposal in proposals:
            idx = torch.arange(len(proposal)).to(proposal.boxes.device)  # expect: PP506 high
            feats = feats + idx.sum()
        pos = torch.arange(n).to(self.device)  # expect: PP506 high
        mask = torch.ones(n, n).to(self.args.device)  # expect: PP506 high
        if self.use_prior:
            prior = torch.zeros(n).to(feats.device)  # expect: PP506 high
            feats = feats + prior.sum()
        offsets = torch.rand(n, 2)
        if torch.cuda.is_available():
            offsets = offsets.cuda()  # expect: PP506 high
        labels = torch.zeros(n)
        if feats.is_cuda:
            labels = labels.cuda()  # expect: PP506 high
        weights = torch.ones(n)
        if self.use_gpu:
            weights = weights.cuda()  # expect: PP506 high
        grid = torch.from_numpy(np.eye(4)).to(torch.float32).to(feats.device)  # expect: PP506 high
        return self.fc(
            feats * eye + pos + mask.sum() + offsets.sum() + labels.sum() + weights.sum() + grid.sum()
        )


def noisy_targets(targets, k, device="cuda"):
    """A buffer whose rows are noise drawn on the host is still made on the host."""
    for batch in targets:
        noise = torch.randn(batch.size(0), k)
        padded = torch.zeros(batch.size(0), 2 * k)
        padded[:, :k] = noise
        padded = padded.to(torch.float16)
        yield padded.to(device)  # expect: PP506 low


class AnchorHead(nn.Module):
    """(torch-fix54) Grids `torch.meshgrid` gives from host aranges are on the host, also when unpacked and
    rebound pairwise (`xv, yv = xv.flatten().float(), yv.flatten().float()`)."""

    def __init__(self, dim):
        super().__init__()
        self.conv = nn.Conv2d(dim, 2, 1)

    def forward(self, x):
        h, w = x.shape[-2:]
        yv, xv = torch.meshgrid(torch.arange(h), torch.arange(w))
        xv, yv = xv.flatten().float(), yv.flatten().float()
        xv = xv.cuda()  # expect: PP506 high
        yv = yv.to(x.device)  # expect: PP506 high
        return self.conv(x).flatten(2) + xv + yv


def train_gan(G, D, loader, opt):
    """A pairwise rebinding that holds the move itself still looks above it for the noise's factory."""
    from torch.autograd import Variable

    for x, _ in loader:
        z = torch.rand((x.size(0), 64))
        x, z = (
            Variable(x.cuda()),
            Variable(z.cuda()),  # expect: PP506 high
        )
        loss = -D(G(z)).mean() + D(x).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
