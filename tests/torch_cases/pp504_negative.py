import torch
import torchvision
from torch.utils.data import DataLoader, TensorDataset

transform = torchvision.transforms.ToTensor()
train_set = torchvision.datasets.MNIST("./data", train=True, transform=transform)
test_set = torchvision.datasets.MNIST("./data", train=False, transform=transform)
kwargs = {"num_workers": 4, "pin_memory": True}
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, **kwargs)
test_loader = DataLoader(test_set, batch_size=1000)
features = TensorDataset(torch.randn(1000, 20), torch.randint(0, 2, (1000,)))
feature_loader = DataLoader(features, batch_size=64, shuffle=True)
worker_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=8)


def train(model, optimizer, criterion):
    for loader in (train_loader, feature_loader, worker_loader):
        for x, y in loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
    with torch.no_grad():
        return sum((model(x).argmax(1) == y).sum() for x, y in test_loader)
