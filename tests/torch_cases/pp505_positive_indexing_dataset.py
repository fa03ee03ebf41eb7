# tabular prediction and a feature classifier (hold-out 21's TabNet `predict`, the emotion CRNN): a loader over
# a Dataset class whose `__getitem__` only indexes arrays it holds (a sparse row made dense at most), made from
# the def's own parameters, batches arrays the caller already holds, so PP505 reports it at low; the twin class
# that opens a file per item, the indexing class over features the def loads itself, and one that loads its
# examples in `__init__` from the path it is handed (hold-out 13's QANet), stay high, as does a training loop
# over the caller's arrays (hold-out 20's protein-sequence-embedding)
import pickle

import numpy as np
import scipy.sparse
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class PredictDataset(Dataset):
    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        return self.x[index]


class SparsePredictDataset(Dataset):
    def __init__(self, x):
        self.x = x

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, index):
        return torch.from_numpy(self.x[index].toarray()[0]).float()


class ImageListDataset(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        return torch.from_numpy(np.asarray(Image.open(self.paths[index]), dtype=np.float32))


@torch.no_grad()
def predict(network, X, batch_size=1024):
    network.eval()
    if scipy.sparse.issparse(X):
        dataloader = DataLoader(SparsePredictDataset(X), batch_size=batch_size)  # expect: PP505 low
    else:
        dataloader = DataLoader(PredictDataset(X), batch_size=batch_size)  # expect: PP505 low
    results = []
    for data in dataloader:
        results.append(network(data.to("cuda").float()).detach())
    return torch.cat(results)


@torch.no_grad()
def predict_images(network, paths, batch_size=64):
    network.eval()
    dataloader = DataLoader(ImageListDataset(paths), batch_size=batch_size)  # expect: PP505
    results = []
    for data in dataloader:
        results.append(network(data.to("cuda")).detach())
    return torch.cat(results)


@torch.no_grad()
def embed_features(network, path, batch_size=256):
    network.eval()
    features = np.load(path)
    dataloader = DataLoader(PredictDataset(features), batch_size=batch_size)  # expect: PP505 medium
    results = []
    for data in dataloader:
        results.append(network(data.to("cuda")).detach())
    return torch.cat(results)


class ExamplesDataset(Dataset):
    def __init__(self, examples_file):
        with open(examples_file, "rb") as f:
            self.examples = pickle.load(f)

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, idx):
        return self.examples[idx]


@torch.no_grad()
def predict_file(network, examples_file, batch_size=32):
    network.eval()
    dataloader = DataLoader(ExamplesDataset(examples_file), batch_size=batch_size)  # expect: PP505 medium
    results = []
    for data in dataloader:
        results.append(network(data.to("cuda")).detach())
    return torch.cat(results)


def train(model, optimizer, x_train, y_train, epochs=10):
    dataset = PairDataset(x_train, y_train)
    iterator = DataLoader(dataset, shuffle=True, batch_size=1)  # expect: PP505 medium
    for _epoch in range(epochs):
        for x, y in iterator:
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


class PairDataset(Dataset):
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
