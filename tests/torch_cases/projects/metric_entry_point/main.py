"""(torch-fix151) NARM's and pyGRU4REC's shape (hold-out 48): the loops call `metric.evaluate(logits, target)`,
a def with no read of its own whose helpers `get_recall` and `get_mrr` read on the host (`mrr.item()`)."""

import metric
import torch
import torch.nn as nn

device = torch.device("cuda")


def train(model, loader, optimizer):
    criterion = nn.CrossEntropyLoss()
    model.train()
    for seq, target in loader:
        seq, target = seq.to(device), target.to(device)
        optimizer.zero_grad()
        logits = model(seq)
        loss = criterion(logits, target)
        loss.backward()
        optimizer.step()
        recall, mrr = metric.evaluate(logits, target, k=20)


def validate(model, loader):
    model.eval()
    mrrs = []
    with torch.no_grad():
        for seq, target in loader:
            seq, target = seq.to(device), target.to(device)
            logits = model(seq)
            recall, mrr = metric.evaluate(logits, target, k=20)
            mrrs.append(mrr)
    return sum(mrrs) / len(mrrs)
