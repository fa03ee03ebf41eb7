import h5py
import numpy as np
import torch
from dataset import listDataset
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import datasets, transforms


class WindowSet(Dataset):
    """Windows of a series read whole in __init__: each item is a slice of an array in memory."""

    def __init__(self, path, win):
        self.values = np.load(path)
        self.win = win

    def __len__(self):
        return len(self.values) - self.win

    def __getitem__(self, i):
        return np.float32(self.values[i : i + self.win])


class FieldSet(Dataset):
    def __init__(self, path):
        with h5py.File(path, "r") as f:
            self.fields = torch.tensor(f["u"][...])

    def __len__(self):
        return len(self.fields)

    def __getitem__(self, i):
        return self.fields[i, :-1], self.fields[i, 1:]


class FrameSet(Dataset):
    def __init__(self, paths, labels):
        self.paths, self.labels = paths, labels

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return transforms.ToTensor()(Image.open(self.paths[i])), self.labels[i]


class ShardOf(Dataset):
    def __init__(self, dataset, idxs):
        self.dataset, self.idxs = dataset, list(idxs)

    def __len__(self):
        return len(self.idxs)

    def __getitem__(self, i):
        image, label = self.dataset[self.idxs[i]]
        return image, label


def train(model, optimizer, criterion, args):
    device = torch.device("cuda")
    windows = DataLoader(WindowSet(args.series, 96), batch_size=32, num_workers=4)  # expect: PP505 medium
    fields = DataLoader(FieldSet(args.h5), batch_size=16, shuffle=True, num_workers=4)  # expect: PP505 medium
    frames = DataLoader(FrameSet(args.paths, args.labels), batch_size=64, num_workers=4)  # expect: PP505 high
    tf = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
    cifar = DataLoader(datasets.CIFAR10(args.root, transform=tf), num_workers=4)  # expect: PP505 high
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize(mean=[0.5], std=[0.2])])
    crowds = DataLoader(listDataset(args.train, transform=tf), num_workers=4)  # expect: PP505 high
    counts = DataLoader(listDataset(args.val, transform=None), num_workers=4)  # expect: PP505 medium
    mnist = datasets.MNIST(args.root, train=True, transform=transforms.ToTensor())
    shards = DataLoader(ShardOf(mnist, args.idxs), batch_size=10, num_workers=4)  # expect: PP505 high
    for x, y in windows:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in fields:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in frames:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in cifar:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in crowds:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in counts:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in shards:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
