"""A training loop over a progress bar entered as a context manager (age-estimation-pytorch's
`with tqdm(train_loader) as _tqdm: for x, y in _tqdm:`): the bar wraps the loader, whose copies are
reported; a `with` binding a file the loop reads lines of is no loader."""

import torch
from torch.utils.data import DataLoader
from tqdm import tqdm


def train(train_loader, model, criterion, optimizer, device):
    model.train()
    with tqdm(train_loader) as _tqdm:
        for x, y in _tqdm:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()


def read_ids(path, device):
    with open(path) as f:
        return [torch.tensor(int(line)).to(device) for line in f]


def main(model, criterion, optimizer, train_set, epochs):
    device = torch.device("cuda")
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4)  # expect: PP505 medium
    for _ in range(epochs):
        train(train_loader, model, criterion, optimizer, device)
    return read_ids("ids.txt", device)
