"""A partial that pins for every loader it makes, and a DataLoader subclass with an iteration of its own."""

from functools import partial

import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class ThreadingDataLoader(DataLoader):
    def __iter__(self):
        for indices in self.batch_sampler:
            yield self.collate_fn([self.dataset[i] for i in indices])


def train(model, optimizer, device, epochs):
    make_loader = partial(DataLoader, batch_size=64, shuffle=True, num_workers=8, pin_memory=True)
    train_set = datasets.CIFAR10("data", train=True, transform=transforms.ToTensor())
    train_loader = make_loader(train_set)
    threaded = ThreadingDataLoader(train_set, batch_size=64, num_workers=4)
    for _ in range(epochs):
        for images, labels in train_loader:
            loss = torch.nn.functional.cross_entropy(model(images.to(device)), labels.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for images, labels in threaded:
            loss = torch.nn.functional.cross_entropy(model(images.to(device)), labels.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
