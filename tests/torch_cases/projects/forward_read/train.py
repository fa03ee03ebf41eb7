"""The training loop that calls the loss instance every step."""

import torch
from losses import Overlap


def train(model, loader, epochs):
    model = model.cuda()
    overlap = Overlap(4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(epochs):
        for images, labels in loader:
            images, labels = images.cuda(), labels.cuda()
            outputs = model(images)
            loss = overlap(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
