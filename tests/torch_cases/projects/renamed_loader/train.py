import torch

from data import DataLoader, FeatureDataset


def train_epoch(model, loader, optimizer, device):
    model.train()
    for features, targets in loader:
        features, targets = features.to(device), targets.to(device)
        loss = torch.nn.functional.cross_entropy(model(features), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(paths, model, optimizer):
    device = torch.device("cuda")
    model.to(device)
    for _ in range(10):
        dataset = FeatureDataset(paths)
        loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4)  # expect: PP505
        train_epoch(model, loader, optimizer, device)
