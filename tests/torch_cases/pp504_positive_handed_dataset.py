# active learning's inference passes and a traffic model's trainer (hold-out 22's Sequential-GCN, hold-out 21's
# T-GCN): a worker-less loader made over a data set the def is handed says nothing of what the set reads per
# item (mostly in-memory sets on hold-outs 13-22), so PP504 reports it at low; the twin loader over a data set
# class the module makes itself (one that reads each item from disk) stays high
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda")


class SeriesDataset(Dataset):
    def __init__(self, path):
        self.path = path
        self.length = len(np.load(path, mmap_mode="r"))

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        return torch.from_numpy(np.load(self.path, mmap_mode="r")[index].copy())


def train_on(model, optimizer, dataset, batch_size):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, pin_memory=True)  # expect: PP504 low
    for x in loader:
        x = x.to(device)
        optimizer.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()


def train_series(model, optimizer, path, batch_size):
    series = SeriesDataset(path)
    loader = DataLoader(series, batch_size=batch_size, shuffle=True, pin_memory=True)  # expect: PP504 high
    for x in loader:
        x = x.to(device)
        optimizer.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
