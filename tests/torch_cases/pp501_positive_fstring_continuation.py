"""A loss tensor printed through an f-string continued on the next line: reported where the tensor is."""

import torch


def train(model, loader, optimizer, criterion):
    device = torch.device("cuda")
    for epoch in range(10):
        for step, (images, labels) in enumerate(loader):
            images, labels = images.to(device), labels.to(device)
            loss = criterion(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(
                f"[training] epoch: {epoch} step: {step} loss: {loss:.4f}"  # expect: PP501
            )
