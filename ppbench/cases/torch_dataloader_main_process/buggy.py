"""PyTorch: a DataLoader with the default num_workers=0 over a dataset whose __getitem__ waits on storage (each
sample read from a slow disk or a network store: a fixed latency here); the training loop waits for every read."""

import time

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from ppbench import probe

torch.set_num_threads(1)  # one intra-op thread: the case measures the PP, not the machine's parallelism
READ_LATENCY_S = 0.003


class RemoteImages(Dataset):
    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        time.sleep(READ_LATENCY_S)  # the storage round trip of one sample
        g = torch.Generator().manual_seed(i)
        return torch.randn(3, 16, 16, generator=g), i % 10


torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loader = DataLoader(RemoteImages(probe.count(400)), batch_size=16, shuffle=True)
with probe.section():
    for images, labels in loader:
        loss = nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
