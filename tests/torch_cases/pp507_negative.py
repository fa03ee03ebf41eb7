import copy

import torch.nn as nn
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 2)

    def forward(self, x):
        return self.fc(x)


def cross_validate(folds, device):
    scores = []
    for train_loader, val_loader in folds:
        model = Net().to(device)
        optimizer = optim.Adam(model.parameters())
        criterion = nn.CrossEntropyLoss()
        for x, y in train_loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        scores.append(val_loader)
    return scores


def sweep(base, loader):
    for lr in [0.1, 0.01, 0.001]:
        model = copy.deepcopy(base)
        optimizer = optim.SGD(model.parameters(), lr=lr)
        for x, y in loader:
            nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def compare_devices(model, loader):
    for device in ["cpu", "cuda"]:
        criterion = nn.NLLLoss()
        optimizer = optim.Adam(model.parameters(), lr=0.001)
        model.to(device)
        for x, y in loader:
            criterion(model(x.to(device)), y.to(device)).backward()
            optimizer.step()
