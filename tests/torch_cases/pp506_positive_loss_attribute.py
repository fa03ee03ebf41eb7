"""(torch-fix58) A copy to `self.<attr>` in a loss def (or a def it calls), outside any loop and `if`, is `high`:
the loss runs once per training step, on the model's device. The same copy in a forward, under an option's
`if`, or to an options object's device (`self.args.device`) stays at the rule's `medium`.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class NodeClassifier(nn.Module):
    def __init__(self, dim, n_classes, args, weighted=False):
        super().__init__()
        self.fc = nn.Linear(dim, n_classes)
        self.n_classes = n_classes
        self.device = torch.device("cuda")
        self.args = args
        self.weighted = weighted
        self._protos = []

    def forward(self, h):
        bias = torch.zeros(self.n_classes).to(self.device)  # expect: PP506 high
        return self.fc(h) + bias

    def loss(self, pred, label):
        count = torch.zeros(self.n_classes).long().to(self.device)  # expect: PP506 high
        count[torch.unique(label)] = torch.bincount(label)
        weight = (count.sum() - count).float() / count.sum()
        if self.weighted:
            extra = torch.ones(self.n_classes).to(self.device)  # expect: PP506
            weight = weight * extra
        scale = torch.ones(1).to(self.args.device)  # expect: PP506
        return F.cross_entropy(pred, label, weight=weight) * scale + self._proto_loss(pred)

    def _proto_loss(self, pred):
        p = torch.from_numpy(np.array(self._protos)).to(self.device, non_blocking=True)  # expect: PP506 high
        protos = p
        return (pred.mean(0) - protos.mean(0)).pow(2).sum()
