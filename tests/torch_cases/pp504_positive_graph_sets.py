"""Graph-classification scripts over PyG's TU data sets. A loader of PyG's own data set, made without a
per-item transform (also shuffled, sliced, or as a list of its items), collates small graphs it holds in
memory: PP504 at low. With a `transform=`, or over a project class whose `get()` augments each graph, each
item is work for the workers: the rule's own level."""

import os.path as osp

import torch
import torch_geometric.transforms as T
from aug import TUDataset_aug
from sklearn.model_selection import KFold
from torch_geometric.data import DataLoader
from torch_geometric.datasets import TUDataset

device = torch.device("cuda")


def train(model, optimizer, loader):
    model.train()
    for data in loader:
        data = data.to(device)
        optimizer.zero_grad()
        loss = model.loss(model(data.x, data.edge_index, data.batch), data.y)
        loss.backward()
        optimizer.step()


def plain(model, optimizer, args):
    path = osp.join("data", args.DS)
    dataset = TUDataset(path, name=args.DS).shuffle()
    dataloader = DataLoader(dataset, batch_size=128, pin_memory=True)  # expect: PP504 low
    for _ in range(args.epochs):
        train(model, optimizer, dataloader)


def folds(model, optimizer, args):
    dataset = TUDataset(osp.join("data", args.DS), name=args.DS)
    dataset = dataset[: int(len(dataset) * args.percentage)]
    dataset = dataset.shuffle()
    for train_index, _ in KFold(n_splits=10, shuffle=True).split(dataset):
        train_dataset = [dataset[int(i)] for i in list(train_index)]
        train_loader = DataLoader(train_dataset, batch_size=128, pin_memory=True)  # expect: PP504 low
        train(model, optimizer, train_loader)


def transformed(model, optimizer, args):
    dataset = TUDataset(osp.join("data", args.DS), name=args.DS, transform=T.ToDense(args.max_nodes))
    loader = DataLoader(dataset, batch_size=128, pin_memory=True)  # expect: PP504
    for _ in range(args.epochs):
        train(model, optimizer, loader)


def augmented(model, optimizer, args):
    dataset = TUDataset_aug(osp.join("data", args.DS), name=args.DS, aug=args.aug).shuffle()
    loader = DataLoader(dataset, batch_size=128, pin_memory=True)  # expect: PP504
    for _ in range(args.epochs):
        train(model, optimizer, loader)
