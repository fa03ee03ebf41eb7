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
    loader = DataLoader(ClipSet(names), batch_size=1)  # expect: PP504 medium  # expect: PP505 medium
    for _ in range(epochs):
        for clip, label in loader:
            clip, label = clip.to(device), label.to(device)
            optimizer.zero_grad()
            criterion(model(clip), label).backward()
            optimizer.step()


def evaluate(model, names):
    device = torch.device("cuda")
    one = DataLoader(ClipSet(names), batch_size=1, shuffle=False)  # expect: PP505 low
    many = DataLoader(ClipSet(names), batch_size=16)  # expect: PP505 medium
    with torch.no_grad():
        for clip, _ in one:
            model(clip.to(device))
        for clip, _ in many:
            model(clip.to(device))
