import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


class listDataset(Dataset):
    def __init__(self, root, transform=None, train=False):
        self.lines = list(root)
        self.transform = transform
        self.train = train

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, index):
        img = Image.open(self.lines[index]).convert("RGB")
        target = np.load(self.lines[index].replace(".jpg", ".npy"))
        if self.transform is not None:
            img = self.transform(img)
        return img, torch.from_numpy(target)


class Windows(Dataset):
    def __init__(self, series, length):
        self.series = series
        self.length = length

    def __len__(self):
        return len(self.series) - self.length

    def __getitem__(self, index):
        return self.series[index : index + self.length], self.series[index + self.length]
