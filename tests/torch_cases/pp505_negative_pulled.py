"""Batches pulled with next(): one batch looked at before training, or pulled and kept on the CPU."""

import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")


def show_batch(dataset):
    loader = DataLoader(dataset, batch_size=16, shuffle=True)
    images, labels = next(iter(loader))  # one batch, outside any loop
    print(images.to(device).shape, labels)


def probe(dataset, model, steps):
    loader = DataLoader(dataset, batch_size=16, num_workers=2, pin_memory=True)
    batches = iter(loader)
    for _ in range(steps):
        x, y = next(batches)
        model(x.to(device)).sum().backward()


def cpu_statistics(dataset, steps):
    loader = DataLoader(dataset, batch_size=256, num_workers=4)
    batches = iter(loader)
    total = 0.0
    for _ in range(steps):
        x, _ = next(batches)
        total += x.mean().item()  # stays on the CPU: nothing to pin for
    return total / steps
