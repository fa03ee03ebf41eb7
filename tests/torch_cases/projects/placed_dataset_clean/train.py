import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import transforms
from torchvision.datasets import MNIST


def main(model, optimizer):
    device = torch.device("cuda")
    train_set = MNIST("data", train=True, transform=transforms.ToTensor())
    loader = DataLoader(train_set, batch_size=64, num_workers=4)  # expect: PP505
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()
