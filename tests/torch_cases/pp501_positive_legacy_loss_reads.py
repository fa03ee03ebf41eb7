"""PP501 (torch-fix127): pre-0.4 `loss.data[0]` reads where the rule did not look. A part-loss trainer whose
backward is `torch.autograd.backward([...], grads)` (so the loss is not a backward operand) logs
`loss.data[0]` every step (PCB_RPP's `trainers_partloss.py`, hold-out 30); a `train_batch` def that steps
the optimizer returns `pd.Series({x: y.data[0] for x, y in losses.items()})` on every step of the epoch loop
(neural-motifs' and KERN's `train_rels.py`, hold-out 40). Both at medium: the code fails on today's PyTorch
as written."""

import pandas as pd
import torch
import torch.nn.functional as F

device = torch.device("cuda")


class Trainer:
    def __init__(self, model):
        self.model = model
        self.grads = [torch.ones(1, device=device)] * 3

    def train(self, data_loader, optimizer, losses):
        for _i, (inputs, targets) in enumerate(data_loader):
            inputs, targets = inputs.cuda(), targets.cuda()
            loss0, loss1, loss2 = self.model(inputs, targets)
            loss = (loss0 + loss1 + loss2) / 3
            losses.update(loss.data[0], targets.size(0))  # expect: PP501
            optimizer.zero_grad()
            torch.autograd.backward([loss0, loss1, loss2], self.grads)
            optimizer.step()


detector = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.SGD(detector.parameters(), lr=0.1)


def train_epoch(loader):
    tr = []
    for _b, batch in enumerate(loader):
        tr.append(train_batch(batch))
    return pd.concat(tr, axis=1)


def train_batch(b):
    result = detector(b[0].cuda())
    losses = {}
    losses["class_loss"] = F.cross_entropy(result, b[1].cuda())
    loss = sum(losses.values())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses["total"] = loss
    res = pd.Series({x: y.data[0] for x, y in losses.items()})  # expect: PP501
    return res
