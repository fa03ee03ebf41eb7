"""Molecular conformation training on PyG graph batches: the data set is a class of the project made with a
per-item graph transform, and its loaders are PyG's. The batches are collated small graphs held in memory, so
the missing pin is reported below the default (medium). The image loader of the same script, over a data set
made with a per-item image transform and torch's own DataLoader, stays at the default (high)."""

import pickle

import torch
from torch.utils.data import DataLoader as ImageLoader
from torch_geometric.data import DataLoader
from torchvision import transforms


class CountNodesPerGraph:
    def __call__(self, data):
        data.num_nodes_per_graph = torch.LongTensor([data.num_nodes])
        return data


class ConformationDataset(torch.utils.data.Dataset):
    def __init__(self, path, transform=None):
        with open(path, "rb") as f:
            self.data = pickle.load(f)
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        data = self.data[i].clone()
        return self.transform(data) if self.transform is not None else data


class SnapshotImages(torch.utils.data.Dataset):
    def __init__(self, paths, transform):
        self.paths = paths
        self.transform = transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.transform(self.paths[i])


def train(model, paths, device="cuda"):
    train_set = ConformationDataset("train.pkl", transform=CountNodesPerGraph())
    val_set = ConformationDataset("val.pkl", transform=CountNodesPerGraph())
    train_loader = DataLoader(train_set, 64, shuffle=True, num_workers=2)  # expect: PP505 medium
    val_loader = DataLoader(val_set, 64, num_workers=2)  # expect: PP505 medium
    image_set = SnapshotImages(paths, transform=transforms.ToTensor())
    images = ImageLoader(image_set, 64, num_workers=2)  # expect: PP505 high
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for batch in train_loader:
        batch = batch.to(device)
        loss = model.get_loss(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for x in images:
        x = x.to(device)
        loss = model.image_loss(x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        for batch in val_loader:
            batch = batch.to(device)
            model.get_loss(batch)
