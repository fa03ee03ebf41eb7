# A module that moves nothing to a GPU: it trains on the CPU, so its PP504 findings are confidence medium.
import torch
import torchvision
from torch.utils import data

transform = torchvision.transforms.Compose([torchvision.transforms.ToTensor()])
train_set = torchvision.datasets.CIFAR10(root="./data", train=True, download=True, transform=transform)
train_loader = data.DataLoader(train_set, batch_size=128, shuffle=True)  # expect: PP504 low
images = torchvision.datasets.ImageFolder("images/train", transform=transform)
image_loader = torch.utils.data.DataLoader(images, 32, True, None, None, 0)  # expect: PP504 low


def train(model, optimizer, criterion, epochs=5):
    for _epoch in range(epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        for x, y in image_loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()


def fit(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()


folder_loader = data.DataLoader(images, batch_size=64, shuffle=True)  # expect: PP504 low
fit(None, folder_loader, None, None)


def train_inline(model, dataset, optimizer, criterion):
    for x, y in data.DataLoader(dataset, batch_size=32, shuffle=True):  # expect: PP504 low
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()


def train_steps(model, dataset, optimizer, criterion, steps=10_000):
    loader = data.DataLoader(dataset, batch_size=100, shuffle=True)  # expect: PP504 low
    batches = iter(loader)
    for step in range(steps):
        if step % len(loader) == 0:
            batches = iter(loader)
        x, y = next(batches)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
