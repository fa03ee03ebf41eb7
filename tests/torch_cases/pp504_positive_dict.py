"""Loaders made in a dict comprehension, one per phase, and iterated as `loaders[phase]` (hold-out 4: the
transfer-learning tutorial shape)."""

import os

import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda")
root = "data/hymenoptera"
folders = {p: datasets.ImageFolder(os.path.join(root, p), transforms.ToTensor()) for p in ["train", "val"]}
loaders = {
    p: DataLoader(folders[p], batch_size=4, num_workers=0)  # expect: PP504 # expect: PP505 medium
    for p in ["train", "val"]
}


def fit(model, criterion, optimizer, epochs):
    for _ in range(epochs):
        for phase in ["train", "val"]:
            model.train(phase == "train")
            for inputs, labels in loaders[phase]:
                inputs, labels = inputs.to(device), labels.to(device)
                with torch.set_grad_enabled(phase == "train"):
                    loss = criterion(model(inputs), labels)
                    if phase == "train":
                        optimizer.zero_grad()
                        loss.backward()
                        optimizer.step()
