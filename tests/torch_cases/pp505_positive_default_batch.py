import argparse

import torch
from torch.utils.data import DataLoader, Dataset
from utils import load_clip


class ClipSet(Dataset):
    def __init__(self, names):
        self.names = names

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        return load_clip(self.names[i])


def train(model, optimizer, criterion, names, epochs=30):
    device = torch.device("cuda")
    loader = DataLoader(ClipSet(names), shuffle=True)  # expect: PP504 medium  # expect: PP505 medium
    for _ in range(epochs):
        for clip, label in loader:
            clip, label = clip.to(device), label.to(device)
            optimizer.zero_grad()
            criterion(model(clip), label).backward()
            optimizer.step()


def evaluate(model, names, args):
    device = torch.device("cuda")
    unsized = DataLoader(ClipSet(names), shuffle=False)  # expect: PP505 low
    # (an option's `default=1` in a module that trains: set on the command line when run, not one item)
    option = DataLoader(ClipSet(names), batch_size=args.batch_size)  # expect: PP505 medium
    sized = DataLoader(ClipSet(names), batch_size=args.chunk_size)  # expect: PP505 medium
    with torch.no_grad():
        for clip, _ in unsized:
            model(clip.to(device))
        for clip, _ in option:
            model(clip.to(device))
        for clip, _ in sized:
            model(clip.to(device))


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--chunk-size", type=int, default=16)
    return parser.parse_args()
