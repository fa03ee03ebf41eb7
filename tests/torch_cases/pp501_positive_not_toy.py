"""Literal numbers that are not the data (class weights), random tensors made inside a model, and a dataset
read from disk: not a toy, so the per-step read stays at the rule's confidence."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda")
weights = torch.tensor([[0.2], [0.3], [0.5]])


class Noisy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(784, 10)

    def forward(self, x):
        return self.fc(x + 0.1 * torch.randn(4, 784, device=x.device))


train_set = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
model = Noisy().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())
for images, labels in loader:
    images = images.view(-1, 784).to(device, non_blocking=True)
    labels = labels.to(device, non_blocking=True)
    loss = criterion(model(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss.item())  # expect: PP501
