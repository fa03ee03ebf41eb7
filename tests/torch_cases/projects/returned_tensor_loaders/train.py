import numpy as np
import torch
from cubes import make_iters, make_loader
from shards import ShardSet


def run(model, optimizer, criterion, epochs=100):
    device = torch.device("cuda")
    cube = np.load("indian_pines.npy")
    labels = np.load("indian_pines_gt.npy")
    train_iter, test_iter = make_iters(cube, labels, [(5, 5)] * 200, [(9, 9)] * 100, 3, 64)
    model.to(device)
    for _ in range(epochs):
        for x, y in train_iter:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
    shard_loader = make_loader(ShardSet("shards/"), 64)
    for x, y in shard_loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    with torch.no_grad():
        for x, _ in test_iter:
            model(x.to(device))
