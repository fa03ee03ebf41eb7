import torch  # noqa: F401
import utils


def train(model, loader, optimizer, criterion, meter):
    for data, label in loader:
        logits = model(data)
        loss = criterion(logits, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = utils.compute_acc(logits, label)
        meter.add(acc)
