"""Loops over a batch's rows, in a forward run on every step, that select each row of a tensor by the same
row of a boolean mask (torch-fix55): the select's size is the mask's count, read by the host once per row."""

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


class ChamferBinsLoss(nn.Module):
    def forward(self, bins, depth):
        centers = 0.5 * (bins[:, 1:] + bins[:, :-1])
        points = depth.flatten(1)
        valid = points.ge(1e-3)
        points = [p[m] for p, m in zip(points, valid, strict=True)]  # expect: PP509
        lengths = torch.tensor([len(p) for p in points], device=depth.device)
        return centers, pad_sequence(points, batch_first=True), lengths


class HardestTripletLoss(nn.Module):
    def __init__(self, margin=0.3):
        super().__init__()
        self.margin = margin

    def forward(self, feats, labels):
        n = feats.size(0)
        dist = torch.pow(feats, 2).sum(dim=1, keepdim=True).expand(n, n)
        dist = (dist + dist.t() - 2 * feats @ feats.t()).clamp(min=1e-12).sqrt()
        same = labels.expand(n, n).eq(labels.expand(n, n).t())
        hardest_pos, hardest_neg = [], []
        for i in range(n):
            hardest_pos.append(dist[i][same[i]].max().unsqueeze(0))  # expect: PP509
            hardest_neg.append(dist[i][same[i] == 0].min().unsqueeze(0))
        return torch.relu(torch.cat(hardest_pos) - torch.cat(hardest_neg) + self.margin).mean()
