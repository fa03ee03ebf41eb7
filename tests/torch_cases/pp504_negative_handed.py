"""Loaders handed to another module's defs that say nothing about training, or over data in memory: an
evaluation def given no optimizer, a graph data set's split taken from a loaded container (or rebuilt
from its items), pickled examples loaded whole; and a helper's test loader over a decoding data set that
reads one clip at a time in order."""

import pickle

import librosa
import torch
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset
from train import evaluate_network, train_epoch

from data import FormDataset, LoadData, NLIDataset


def main(params, net, device):
    dataset = LoadData(params["dataset"])
    trainset, valset = dataset.train, dataset.val
    if params["num_train_data"]:
        small = FormDataset(trainset[: params["num_train_data"]][0], trainset[: params["num_train_data"]][1])
    train_loader = DataLoader(
        trainset, batch_size=params["batch_size"], shuffle=True, collate_fn=dataset.collate
    )
    small_loader = DataLoader(
        small, batch_size=params["batch_size"], shuffle=True, collate_fn=dataset.collate
    )
    val_loader = DataLoader(
        valset, batch_size=params["batch_size"], shuffle=False, collate_fn=dataset.collate
    )
    optimizer = optim.Adam(net.parameters(), lr=params["init_lr"])
    for epoch in range(params["epochs"]):
        train_epoch(net, optimizer, device, train_loader, epoch)
        train_epoch(net, optimizer, device, small_loader, epoch)
        evaluate_network(net, device, val_loader, epoch)


def train_nli(train_file, model, device):
    with open(train_file, "rb") as pkl:
        train_data = NLIDataset(pickle.load(pkl))
    train_loader = DataLoader(train_data, shuffle=True, batch_size=32)
    optimizer = torch.optim.Adam(model.parameters(), lr=4e-4)
    for epoch in range(10):
        train_epoch(model, train_loader, optimizer, epoch)


class ClipDataset(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        wav, _ = librosa.load(self.paths[i], sr=16000)
        return torch.from_numpy(wav)


def create_dataloader(paths, train, batch_size):
    if train:
        return DataLoader(ClipDataset(paths), batch_size=batch_size, shuffle=True, num_workers=4)
    return DataLoader(ClipDataset(paths), batch_size=1, shuffle=False, num_workers=0)
