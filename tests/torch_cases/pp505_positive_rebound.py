import torch
from torch.utils.data import DataLoader
from tqdm import tqdm


def train_epoch(model, optimizer, loader):
    loader = tqdm(loader)  # the parameter rebound to its own progress bar
    for images, targets in loader:
        images, targets = images.cuda(), targets.cuda()
        loss = torch.nn.functional.cross_entropy(model(images), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(model, optimizer, train_set):
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4)  # expect: PP505 medium
    for _ in range(90):
        train_epoch(model, optimizer, train_loader)
