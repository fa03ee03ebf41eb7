"""A training loop that draws a sample now and then still copies every batch from pageable memory."""

import matplotlib.pyplot as plt
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def train(model, optimizer, device, epochs):
    train_set = datasets.ImageFolder("data/train", transform=transforms.ToTensor())
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True, num_workers=4)  # expect: PP505 high
    for _ in range(epochs):
        for step, (images, labels) in enumerate(train_loader):
            images, labels = images.to(device), labels.to(device)
            loss = torch.nn.functional.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 500 == 0:
                plt.imshow(images[0].permute(1, 2, 0).cpu())
                plt.savefig(f"sample_{step}.png")


def show_test_batches(model, test_set, device):
    test_loader = DataLoader(test_set, batch_size=64, num_workers=4)  # expect: PP505 medium
    model.eval()
    with torch.no_grad():
        for images, _ in test_loader:
            preds = model(images.to(device)).argmax(1)
            if preds[0] == 0:
                plt.imshow(images[0].permute(1, 2, 0))
