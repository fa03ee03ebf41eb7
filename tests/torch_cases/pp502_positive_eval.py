"""Validation losses summed or collected as tensors in loops that run no backward, outside no_grad."""

import torch
import torch.nn.functional as F
from torch import nn


def validate(model, val_loader, criterion, device):
    model.eval()
    total_loss, seen = 0.0, 0
    for data, target in val_loader:
        data, target = data.to(device), target.to(device)
        output = model(data)  # expect: PP503 high
        loss = criterion(output, target)
        total_loss += loss * data.size(0)  # expect: PP502
        seen += data.size(0)
    return total_loss / seen


def evaluate(model, loader):
    model.eval()
    losses = []
    for batch in loader:
        outputs = model(**batch)  # expect: PP503 high
        loss = outputs.loss
        losses.append(loss)  # expect: PP502
    return torch.stack(losses).mean()


def estimate_loss(model, get_batch, eval_iters):
    out = {}
    for split in ("train", "val"):
        total = 0
        for _ in range(eval_iters):
            x, y = get_batch(split)
            logits, loss = model(x, y)
            total = total + loss  # expect: PP502
        out[split] = total / eval_iters
    return out


def fit(model, train_loader, val_loader, optimizer, epochs):
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        val_loss = 0
        for x, y in val_loader:
            val_loss += F.cross_entropy(model(x), y)  # expect: PP502  # expect: PP503
        print(f"epoch {epoch}: validation loss {val_loss.item() / len(val_loader):.4f}")


model = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 1))
batches = [(torch.randn(64, 32), torch.randn(64, 1)) for _ in range(100)]
test_loss = 0
for step in range(len(batches)):
    x, y = batches[step]
    test_loss += F.mse_loss(model(x), y)  # expect: PP502
print(test_loss / len(batches))


class AverageMeter:
    """Computes and stores the average and current value."""

    def __init__(self):
        self.val = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += self.val * n
        self.count += n


def train_epoch(model, loader, optimizer, criterion):
    losses = AverageMeter()
    for images, target in loader:
        loss = criterion(model(images), target)
        losses.update(loss, images.size(0))  # expect: PP502
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return losses.sum / losses.count
