"""A Dataset that holds the images as tensors and moves each item to the GPU in `__getitem__` (hold-out 4:
a book's FashionMNIST chapters): no file is read per item, and workers as written could not run it."""

import torch
from torch.utils.data import DataLoader, Dataset
from torchvision import datasets

device = "cuda" if torch.cuda.is_available() else "cpu"
fmnist = datasets.FashionMNIST("data", download=True, train=True)


class HeldImages(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x.float().view(-1, 784) / 255, y

    def __getitem__(self, ix):
        return self.x[ix].to(device), self.y[ix].to(device)

    def __len__(self):
        return len(self.x)


def fit(model, optimizer, loss_fn, epochs):
    loader = DataLoader(HeldImages(fmnist.data, fmnist.targets), batch_size=32, shuffle=True)
    for _ in range(epochs):
        for x, y in loader:
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
