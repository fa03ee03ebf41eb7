import torch
import torch.nn as nn
from models import Net


def sweep(loader, rates, device):
    for rate in rates:
        model = Net().to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=rate)
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x.to(device)), y.to(device)).backward()
            optimizer.step()


def folds(datasets, device):
    for k in range(len(datasets)):
        model = nn.Sequential(nn.Linear(10, 2))
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.Adam(model.parameters())
        for x, y in datasets[k]:
            optimizer.zero_grad()
            criterion(model(x.to(device)), y.to(device)).backward()
            optimizer.step()


def train(model, optimizer, source_loader, device, n_batches):
    batch, _ = next(iter(source_loader))
    print(batch.shape)
    source_iter = iter(source_loader)
    for step in range(n_batches):
        if step % len(source_loader) == 0:
            source_iter = iter(source_loader)
        source, label = next(source_iter)
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(source.to(device)), label.to(device)).backward()
        optimizer.step()
