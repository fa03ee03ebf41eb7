import numpy as np
import torch
from torch.utils.data import Dataset


class StrokeDataset(Dataset):
    def __init__(self, path):
        self.data = np.load(path)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return torch.from_numpy(self.data[i]).float(), i % 5
