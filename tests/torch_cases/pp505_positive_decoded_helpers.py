import cv2
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


def read_frame(path):
    frame = cv2.imread(path, cv2.IMREAD_COLOR)
    return np.ascontiguousarray(frame[:, :, ::-1])


class PairFolder(Dataset):
    """Decodes two images per item through a method of its own (`self.load_img` -> `Image.open`)."""

    def __init__(self, paths_a, paths_b):
        self.paths_a, self.paths_b = paths_a, paths_b

    def __len__(self):
        return len(self.paths_a)

    def __getitem__(self, i):
        a = self.load_img(self.paths_a[i])
        b = self.load_img(self.paths_b[i])
        return a, b

    def load_img(self, path):
        img = Image.open(path).convert("RGB")
        return torch.from_numpy(np.asarray(img)).permute(2, 0, 1).float() / 255


class ClipSet(Dataset):
    """Decodes each frame two calls deep: `self.sample(i)` -> `read_frame(path)` -> `cv2.imread`."""

    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.sample(i)

    def sample(self, i):
        return torch.from_numpy(read_frame(self.paths[i])).float(), i % 10


class SeriesWindows(Dataset):
    """Indexes an array held in memory through a helper: nothing is decoded per item."""

    def __init__(self, values, win):
        self.values, self.win = values, win

    def __len__(self):
        return len(self.values) - self.win

    def __getitem__(self, i):
        return self.window(i)

    def window(self, i):
        return np.float32(self.values[i : i + self.win]), np.float32(self.values[i + self.win])


def train(model, optimizer, criterion, args):
    device = torch.device("cuda")
    pairs = DataLoader(PairFolder(args.a, args.b), batch_size=8, num_workers=4)  # expect: PP505 high
    clips = DataLoader(ClipSet(args.clips), batch_size=16, shuffle=True, num_workers=4)  # expect: PP505 high
    windows = DataLoader(SeriesWindows(args.values, 96), batch_size=32, num_workers=4)  # expect: PP505 medium
    probes = DataLoader(PairFolder(args.a, args.b), batch_size=1, num_workers=4)  # expect: PP505 high
    for x, y in pairs:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in clips:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in windows:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    for x, y in probes:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
