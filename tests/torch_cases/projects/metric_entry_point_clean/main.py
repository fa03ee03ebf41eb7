"""(torch-fix151) The entry point's silent neighbour: `evaluate` runs a loop of its own (an evaluation pass over
chunks, not a metric of the batch handed in), so its helper's read is judged with that loop, not per call."""

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
