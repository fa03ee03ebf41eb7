import numpy as np
import torch
from torch.utils.data import Dataset


class Clips(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.from_numpy(np.load(self.files[i]))


class DataLoader:
    # the project's own batcher, named like torch's
    def __init__(self, dataset, batch_size):
        self.dataset, self.batch_size = dataset, batch_size

    def __iter__(self):
        for start in range(0, len(self.dataset), self.batch_size):
            yield torch.stack([self.dataset[i] for i in range(start, start + self.batch_size)])
