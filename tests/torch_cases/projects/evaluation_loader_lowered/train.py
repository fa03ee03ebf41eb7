import torch

from data import get_loaders

device = torch.device("cuda")


def main(model, optimizer, criterion):
    train_loader, val_loader = get_loaders("data")
    for _ in range(10):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            for x, _y in val_loader:
                x = x.to(device)
                model(x)
