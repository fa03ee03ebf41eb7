import numpy as np
import torch
from torch.utils.data import Dataset


class FeatureDataset(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return torch.from_numpy(np.load(self.paths[i])), i

    def collate_fn(self):
        def collate(items):
            return torch.stack([x for x, _ in items]), torch.tensor([i for _, i in items])

        return collate
