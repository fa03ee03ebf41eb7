"""A training script written the way the PyTorch performance guide advises: every PP5xx rule stays silent."""

import argparse

import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 32, 3)
        self.fc = nn.Linear(32 * 26 * 26, 10)

    def forward(self, x):
        return self.fc(torch.flatten(F.relu(self.conv(x)), 1))


def train(model, device, loader, optimizer, epoch, log_interval=100):
    model.train()
    running = torch.zeros((), device=device)
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()
        running += loss.detach()
        if batch_idx % log_interval == 0:
            print(f"epoch {epoch} [{batch_idx}/{len(loader)}] loss {running.item() / (batch_idx + 1):.4f}")


@torch.no_grad()
def test(model, device, loader):
    model.eval()
    correct = torch.zeros((), device=device, dtype=torch.long)
    for data, target in loader:
        data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
        correct += (model(data).argmax(1) == target).sum()
    return correct.item() / len(loader.dataset)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=14)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train_set = datasets.MNIST("../data", train=True, download=True, transform=transform)
    test_set = datasets.MNIST("../data", train=False, transform=transform)
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
    test_loader = DataLoader(test_set, batch_size=1000, num_workers=4, pin_memory=True)
    model = Net().to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    for epoch in range(1, args.epochs + 1):
        train(model, device, train_loader, optimizer, epoch)
        print(f"accuracy {test(model, device, test_loader):.3f}")
        scheduler.step()


if __name__ == "__main__":
    main()
