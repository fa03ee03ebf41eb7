"""A source-separation solver's epoch: on every batch it rebuilds the per-source loss weights from the
run's options with `torch.tensor(args.weights)` on the host and copies them to the batch's device
(demucs' `_run_one_epoch`)."""

import torch
import torch.nn.functional as F


class Solver:
    def __init__(self, model, optimizer, args):
        self.model, self.optimizer, self.args = model.cuda(), optimizer, args

    def _run_one_epoch(self, loader):
        args = self.args
        total = 0
        for mix, sources in loader:
            mix, sources = mix.cuda(), sources.cuda()
            estimate = self.model(mix)
            loss = F.l1_loss(estimate, sources, reduction="none").mean(dims=(2, 3)).mean(0)
            weights = torch.tensor(args.weights).to(sources)  # expect: PP506 high
            loss = (loss * weights).sum() / weights.sum()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.detach()
        return total / len(loader)
