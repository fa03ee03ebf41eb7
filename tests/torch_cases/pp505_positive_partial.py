"""Loaders made through a partial of DataLoader, or a subclass that keeps DataLoader's iteration."""

from functools import partial

import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class InfiniteDataLoader(DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.epochs_seen = 0


def train(model, optimizer, device, epochs):
    make_loader = partial(DataLoader, batch_size=64, shuffle=True, num_workers=8)
    train_set = datasets.CIFAR10("data", train=True, transform=transforms.ToTensor())
    train_loader = make_loader(train_set)  # expect: PP505 high
    extra_loader = InfiniteDataLoader(train_set, batch_size=64, num_workers=4)  # expect: PP505 high
    for _ in range(epochs):
        for images, labels in train_loader:
            step(model, optimizer, images.to(device), labels.to(device))
        for images, labels in extra_loader:
            step(model, optimizer, images.to(device), labels.to(device))


def step(model, optimizer, images, labels):
    loss = torch.nn.functional.cross_entropy(model(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
