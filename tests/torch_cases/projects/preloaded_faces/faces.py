import h5py
import numpy as np
import torch.utils.data as data
from PIL import Image


class FaceSet(data.Dataset):
    def __init__(self, split="train", transform=None):
        self.transform = transform
        self.store = h5py.File("faces.h5", "r", driver="core")
        self.pixels = np.asarray(self.store[split + "_pixel"]).reshape((-1, 48, 48))
        self.labels = np.asarray(self.store[split + "_label"])

    def __getitem__(self, index):
        img, target = self.pixels[index], self.labels[index]
        img = Image.fromarray(img[:, :, np.newaxis].repeat(3, axis=2))
        if self.transform is not None:
            img = self.transform(img)
        return img, target

    def __len__(self):
        return len(self.pixels)


class FaceFiles(data.Dataset):
    def __init__(self, listing, transform=None):
        self.transform = transform
        self.rows = np.loadtxt(listing, dtype=str)

    def __getitem__(self, index):
        path, target = self.rows[index]
        img = Image.open(path).convert("RGB")
        if self.transform is not None:
            img = self.transform(img)
        return img, int(target)

    def __len__(self):
        return len(self.rows)
