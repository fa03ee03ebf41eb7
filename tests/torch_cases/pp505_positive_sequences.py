# loaders over plain sequences the script already holds (hold-outs 18 and 20: a language model over an
# array of encoded sequences a loading def returns, a pair dataset over sequences moved to the GPU first, a
# sampling loader over one structure repeated): the batches are in memory or on the GPU already, so PP505
# is a level below its own and PP504 is silent; the same script over a Dataset that reads files keeps both
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class PairedDataset(Dataset):
    def __init__(self, x0, x1, y):
        self.x0, self.x1, self.y = x0, x1, y

    def __len__(self):
        return len(self.x0)

    def __getitem__(self, i):
        return self.x0[i], self.x1[i], self.y[i]


class ImageFiles(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return torch.from_numpy(np.asarray(Image.open(self.paths[i]), dtype=np.float32))


def load_sequences(path):
    with open(path) as f:
        families, sequences = [], []
        for line in f:
            name, seq = line.split()
            families.append(name)
            sequences.append(np.frombuffer(seq.encode(), dtype=np.uint8))
    families = np.array(families)
    sequences = np.array(sequences, dtype=object)
    return families, sequences


def collate(xs):
    return torch.stack([torch.from_numpy(x).long() for x in xs])


def step(model, optimizer, x):
    loss = model(x).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train_language_model(model, optimizer, path):
    _, x_train = load_sequences(path)
    loader = DataLoader(x_train, batch_size=32, shuffle=True, collate_fn=collate)  # expect: PP505 low
    for x in loader:
        step(model, optimizer, x.cuda())


def train_pairs(model, optimizer, x0, x1, y, use_cuda=True):
    if use_cuda:
        x0 = [x.cuda() for x in x0]
        x1 = [x.cuda() for x in x1]
    pairs = PairedDataset(x0, x1, y)
    loader = DataLoader(pairs, batch_size=32, shuffle=True)  # expect: PP505 low
    for a, b, t in loader:
        step(model, optimizer, torch.cat([a, b]).cuda() + t.cuda())


def sample(model, optimizer, structure, n):
    repeated = [structure] * n
    loader = DataLoader(repeated, batch_size=8, shuffle=True)  # expect: PP505 low
    for batch in loader:
        step(model, optimizer, batch.cuda())


def train_images(model, optimizer, paths):
    images = ImageFiles(paths)
    loader = DataLoader(images, batch_size=32, shuffle=True)  # expect: PP504 high  # expect: PP505
    for x in loader:
        step(model, optimizer, x.cuda())
