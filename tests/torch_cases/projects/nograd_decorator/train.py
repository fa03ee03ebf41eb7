"""Trains a depth network and tests it every epoch: `test_sample` runs under the project's no-grad
decorator; `probe_sample`, only timed, records a graph per batch."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from utils import *  # noqa: F403  (the MVSNet family's shape)

model = torch.nn.Sequential(torch.nn.Conv2d(3, 1, 3, padding=1)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
TrainImgLoader = DataLoader(
    torch.load("train.pt"), batch_size=4, shuffle=True, num_workers=4, pin_memory=True
)
TestImgLoader = DataLoader(torch.load("test.pt"), batch_size=1)


def train():
    for _ in range(16):
        for sample in TrainImgLoader:
            train_sample(sample)
        test()
        probe()


def test():
    losses = []
    for sample in TestImgLoader:
        losses.append(test_sample(sample))
    print("test loss", sum(losses) / len(losses))


def probe():
    losses = []
    for sample in TestImgLoader:
        losses.append(probe_sample(sample))
    print("probe loss", sum(losses) / len(losses))


def train_sample(sample):
    model.train()
    optimizer.zero_grad()
    batch = tocuda(sample)  # noqa: F405
    loss = F.smooth_l1_loss(model(batch["imgs"]), batch["depth"])
    loss.backward()
    optimizer.step()


@make_nograd_func  # noqa: F405
def test_sample(sample):
    model.eval()
    batch = tocuda(sample)  # noqa: F405
    depth_est = model(batch["imgs"])
    return F.smooth_l1_loss(depth_est, batch["depth"]).item()


@timed  # noqa: F405
def probe_sample(sample):
    model.eval()
    batch = tocuda(sample)  # noqa: F405
    depth_est = model(batch["imgs"])  # expect: PP503
    return F.smooth_l1_loss(depth_est, batch["depth"]).item()


if __name__ == "__main__":
    train()
