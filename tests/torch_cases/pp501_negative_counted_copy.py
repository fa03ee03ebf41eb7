"""No PP501: evaluation loops that count on the device, or copy outputs to compute a host metric anyway."""

import numpy as np
import torch
from sklearn.metrics import f1_score

device = torch.device("cuda")


def test(model, test_loader):
    # the count stays on the device and is read once after the loop
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for images, labels in test_loader:
            images, labels = images.to(device), labels.to(device)
            predicts = model(images).argmax(1)
            correct += (predicts == labels).sum()
            total += len(labels)
    return 100 * correct.item() / total


def collect(model, loader):
    # the predictions are collected for a metric computed on the host: the loop waits for each batch anyway
    preds, truths = [], []
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x.to(device)).argmax(1).cpu()
            preds.append(pred.numpy())
            truths.append(y.numpy())
            correct += (pred == y).sum()
    return np.concatenate(preds), np.concatenate(truths), correct


def sample(model, loader):
    # a copy counted only on some batches
    correct = 0
    with torch.no_grad():
        for i, (x, y) in enumerate(loader):
            pred = model(x.to(device)).argmax(1)
            if i % 100 == 0:
                correct += (pred.cpu() == y).sum()
    return correct


def train_with_probe(model, loader, optimizer, n_probe):
    # a no_grad loop inside the loop that steps: part of the training step, not an evaluation between epochs
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            for _ in range(n_probe):
                x = x + 0.01 * model(x).sign()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def evaluate(model, loader):
    # runs the model in a loop of its own: one call is a whole evaluation, not one batch
    total = 0
    for x, _ in loader:
        total += model(x.to(device)).sum()
    return total


def report(model, loaders):
    with torch.no_grad():
        for loader in loaders:
            score = evaluate(model, loader)
            print(score.item())


def test_f1(model, loader):
    # a host metric on every batch (scikit-learn's F1): the copies are what the metric needs
    micro_f1 = 0.0
    with torch.no_grad():
        for data in loader:
            data = data.to(device)
            out = model(data)
            micro_f1 += f1_score(data.y.cpu().numpy(), (out > 0).cpu().numpy(), average="micro")
    return micro_f1
