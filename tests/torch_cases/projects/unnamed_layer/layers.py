"""(torch-fix53) Two filter layers, one the model builds and one left over from an older version that no
module names any more: the old layer's copies are code nothing runs, reported below the default."""

import torch
import torch.nn as nn


class SincFilters(nn.Module):
    def __init__(self, n_filt, filt_dim):
        super().__init__()
        self.n_filt, self.filt_dim = n_filt, filt_dim
        self.band = nn.Parameter(torch.rand(n_filt))

    def forward(self, x):
        window = torch.linspace(0, 1, steps=self.filt_dim).cuda()  # expect: PP506
        return nn.functional.conv1d(x, (self.band[:, None] * window)[:, None, :])


class OldSincFilters(nn.Module):
    def __init__(self, n_filt, filt_dim):
        super().__init__()
        self.n_filt, self.filt_dim = n_filt, filt_dim
        self.band = nn.Parameter(torch.rand(n_filt))

    def forward(self, x):
        filters = torch.zeros(self.n_filt, self.filt_dim).cuda()  # expect: PP506
        t_right = torch.linspace(1, self.filt_dim, steps=self.filt_dim).cuda()  # expect: PP506
        filters = filters + self.band[:, None] * t_right
        return nn.functional.conv1d(x, filters[:, None, :])


class BeamScorer(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.vocab = vocab

    def forward(self, scores):
        prior = torch.ones(scores.size(0), self.vocab).cuda()  # expect: PP506
        return scores + prior.log()
