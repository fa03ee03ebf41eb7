"""PyTorch: the same DataLoader with worker processes (num_workers=4): the reads overlap each other and the
training steps."""

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


if __name__ == "__main__":  # worker processes may re-import this file (spawn start method)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64), nn.ReLU(), nn.Linear(64, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(RemoteImages(probe.count(400)), batch_size=16, shuffle=True, num_workers=4)
    with probe.section():
        for images, labels in loader:
            loss = nn.functional.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
