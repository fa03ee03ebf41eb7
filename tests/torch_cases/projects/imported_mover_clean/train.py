import torch
from tools.train import *  # noqa: F403
from torch.utils.data import DataLoader


def main(dataset, model, optimizer, iterations, device):
    model.to(device)
    train_iterator = iter(DataLoader(dataset, batch_size=16, shuffle=True, num_workers=4))

    def train(it):
        model.train()
        batch = recursive_float(next(train_iterator))  # noqa: F405
        loss = model(batch).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    for it in range(iterations):
        train(it)


def tune(dataset, model, optimizer):
    loader = DataLoader(dataset, batch_size=50, shuffle=True, num_workers=4)
    for images, labels in loader:
        images = place(model, images)  # noqa: F405
        loss = torch.nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
