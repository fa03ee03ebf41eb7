"""Training loaders without workers over data sets that decode each item when it is read (torch-fix51): a
torchvision data set (a PIL image per item, then the transforms) or a Dataset class of the module whose
`__getitem__` opens a file report at high; one over an array loaded whole in `__init__` (wohlert's dSprites)
stays at medium."""

import numpy as np
import torch
import torchvision.datasets as dset
from PIL import Image
from torch.utils.data import DataLoader, Dataset, random_split
from torchvision import datasets, transforms

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Crops(Dataset):
    def __init__(self, paths, transform):
        self.paths, self.transform = paths, transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.transform(Image.open(self.paths[i]).convert("RGB"))


class Sprites(Dataset):
    def __init__(self, path, transform):
        self.imgs = np.load(path)["imgs"]
        self.transform = transform

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, i):
        return self.transform(self.imgs[i])


def fit(model, optimizer, loader, epochs):
    for _ in range(epochs):
        for x, *_ in loader:
            loss = model(x.to(device)).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def main(model, optimizer, paths):
    mnist = datasets.MNIST("data", train=True, transform=transforms.ToTensor(), download=True)
    mnist_loader = DataLoader(mnist, batch_size=100, shuffle=True, pin_memory=True)  # expect: PP504 high
    fit(model, optimizer, mnist_loader, 10)
    folder = dset.ImageFolder("data/train", transform=transforms.ToTensor())
    folder_loader = DataLoader(folder, batch_size=64, num_workers=0, pin_memory=True)  # expect: PP504 high
    fit(model, optimizer, folder_loader, 10)
    crops = Crops(paths, transforms.ToTensor())
    crop_loader = DataLoader(crops, batch_size=32, shuffle=True, pin_memory=True)  # expect: PP504 high
    fit(model, optimizer, crop_loader, 10)
    sprites = Sprites("dsprites.npz", torch.from_numpy)
    sprite_loader = DataLoader(sprites, batch_size=64, shuffle=True, pin_memory=True)  # expect: PP504 medium
    fit(model, optimizer, sprite_loader, 10)


class Trainer:
    """muse's VQGAN trainer: the data set kept on the instance, split for validation, then loaded."""

    def __init__(self, model, optimizer, paths, valid_frac=0.05):
        self.model, self.optimizer = model, optimizer
        self.ds = Crops(paths, transforms.ToTensor())
        train_size = int((1 - valid_frac) * len(self.ds))
        self.ds, self.valid_ds = random_split(self.ds, [train_size, len(self.ds) - train_size])
        self.dl = DataLoader(self.ds, batch_size=16, shuffle=True, pin_memory=True)  # expect: PP504 high

    def train(self, epochs):
        fit(self.model, self.optimizer, self.dl, epochs)
