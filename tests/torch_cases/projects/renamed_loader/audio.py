import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Clips(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.from_numpy(np.load(self.files[i]))


__all__ = ["Clips", "DataLoader"]
