import numpy as np
import torch
from dataset import Windows, listDataset
from torchvision import transforms


def train(train_list, model, criterion, optimizer, batch_size):
    train_loader = torch.utils.data.DataLoader(  # expect: PP504
        listDataset(train_list, transform=transforms.ToTensor(), train=True),
        batch_size=batch_size,
        pin_memory=True,
    )
    model.train()
    for img, target in train_loader:
        img, target = img.cuda(), target.cuda()
        loss = criterion(model(img), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def fit_series(model, optimizer, criterion):
    series = np.load("series.npy")
    windows = Windows(series, 96)
    loader = torch.utils.data.DataLoader(windows, 32, num_workers=0, pin_memory=True)  # expect: PP504
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
