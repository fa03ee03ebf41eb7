"""The evaluation passes of pp505_positive_evaluation_passes.py with pinned loaders: nothing to report."""

import pickle

import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from data import NLIDataset


def train(model, optimizer, config):
    dataset = datasets.CIFAR10("data", transform=transforms.ToTensor(), download=True)
    test_dataset = datasets.CIFAR10("data", train=False, transform=transforms.ToTensor(), download=True)
    dataloader = DataLoader(dataset, batch_size=128, shuffle=True, num_workers=4, pin_memory=True)
    test_loader = DataLoader(test_dataset, batch_size=128, num_workers=4, pin_memory=True)
    test_iter = iter(test_loader)
    step = 0
    for _epoch in range(config.epochs):
        for X, _y in dataloader:
            step += 1
            X = X.to(config.device)
            loss = model(X).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 100 == 0:
                try:
                    test_X, _ = next(test_iter)
                except StopIteration:
                    test_iter = iter(test_loader)
                    test_X, _ = next(test_iter)
                with torch.no_grad():
                    print(model(test_X.to(config.device)).mean().item())


def evaluate(model, device):
    test_set = datasets.ImageFolder("data/val", transform=transforms.ToTensor())
    loader = DataLoader(test_set, batch_size=64, num_workers=4, pin_memory=True)
    correct = 0
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            correct += (model(images).argmax(1) == labels).sum()
    return correct


def test_nli(model, test_file, device):
    with open(test_file, "rb") as pkl:
        test_data = NLIDataset(pickle.load(pkl))
    test_loader = DataLoader(test_data, shuffle=False, batch_size=32, pin_memory=True)
    model.eval()
    with torch.no_grad():
        for batch in test_loader:
            premises = batch["premise"].to(device)
            hypotheses = batch["hypothesis"].to(device)
            print(model(premises, hypotheses).argmax(1))
