import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


class PredictDataset(Dataset):
    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        return self.x[index]


class ImageListDataset(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        return torch.from_numpy(np.asarray(Image.open(self.paths[index]), dtype=np.float32))
