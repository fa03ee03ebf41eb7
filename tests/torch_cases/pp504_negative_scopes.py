import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TableDataset(Dataset):
    """A small table held in memory: items are rows of arrays, nothing to load."""

    def __init__(self, features, labels):
        self.features = features.astype(np.float32)
        self.labels = labels

    def __getitem__(self, index):
        return torch.tensor(self.features[index]), self.labels[index]

    def __len__(self):
        return self.labels.shape[0]


def train_step(model, dataloader, loss_fn, optimizer):
    for X, y in dataloader:
        X, y = X.to(device), y.to(device)
        loss = loss_fn(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def test_step(model, dataloader, loss_fn):
    with torch.inference_mode():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            loss_fn(model(X), y)


def train_net(net, data, loss, epochs, trainer):
    data_iter = DataLoader(data, batch_size=16, shuffle=True)
    for _ in range(epochs):
        for X, y in data_iter:
            trainer.zero_grad()
            loss(net(X), y).backward()
            trainer.step()


def run(model, train_data, test_data, features, labels, loss_fn, optimizer, images):
    train_dataloader = DataLoader(train_data, batch_size=32, shuffle=True, num_workers=4, pin_memory=True)
    test_dataloader = DataLoader(test_data, batch_size=32, pin_memory=True)  # evaluation only
    for _ in range(5):
        train_step(model, train_dataloader, loss_fn, optimizer)
        test_step(model, test_dataloader, loss_fn)
    series = TensorDataset(torch.randn(1000, 4), torch.randn(1000, 1))
    train_net(model, series, loss_fn, 10, optimizer)
    table_loader = DataLoader(TableDataset(features, labels), batch_size=128, shuffle=True, num_workers=0)
    for x, y in table_loader:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()


# A notebook computes the pixel statistics with one loader, then trains with another of the same name.
from setup import images, loss_fn, model, optimizer  # noqa: E402

train_loader = DataLoader(images, batch_size=5000, shuffle=False)
means = [batch[0].numpy().mean(axis=(0, 2, 3)) for batch in train_loader]
train_loader = DataLoader(images, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
for features, targets in train_loader:
    features, targets = features.to(device), targets.to(device)
    optimizer.zero_grad()
    loss_fn(model(features), targets).backward()
    optimizer.step()


def train_vq_vae(model, training_data, validation_data, optimizer, num_training_updates):
    training_loader = DataLoader(training_data, batch_size=256, shuffle=True, num_workers=2, pin_memory=True)
    validation_loader = DataLoader(validation_data, batch_size=32, shuffle=True, pin_memory=True)
    for _ in range(num_training_updates):
        data, _ = next(iter(training_loader))  # expect: PP507 medium
        optimizer.zero_grad()
        model(data.to(device)).mean().backward()
        optimizer.step()
    originals, _ = next(iter(validation_loader))  # one batch of pictures to show
    return model(originals.to(device))
