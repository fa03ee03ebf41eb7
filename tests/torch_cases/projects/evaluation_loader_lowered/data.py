import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, path):
        self.x = np.load(path)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), 0


def get_loaders(root):
    train_loader = DataLoader(Windows(root + "/train.npy"), 64, shuffle=True, num_workers=4)  # expect: PP505
    val_loader = DataLoader(Windows(root + "/val.npy"), 64, shuffle=False, num_workers=4)  # expect: PP505
    return train_loader, val_loader
