import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.data as data
from data.fast_digits import make_digit_sets, make_host_sets


class Pool:
    def __init__(self, dataset, labelled):
        self.training_dataset = data.Subset(dataset, labelled)


def train(model, loader, optimizer, device):
    model.train()
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()


def main(model, optimizer, path, cuda):
    device = torch.device("cuda" if cuda else "cpu")
    train_set, test_set = make_digit_sets(path)
    order = np.random.permutation(len(train_set))
    val_set = torch.utils.data.Subset(train_set, order[:1000])
    train_set = data.ConcatDataset([data.Subset(train_set, order[1000:]), test_set])
    kwargs = {"num_workers": 2, "pin_memory": False} if cuda else {}
    train_loader = data.DataLoader(train_set, batch_size=64, shuffle=True, **kwargs)
    val_loader = data.DataLoader(val_set, batch_size=256, **kwargs)
    pool = Pool(train_set, order[:100])
    pool_loader = data.DataLoader(pool.training_dataset, batch_size=64, **kwargs)
    # (host indices computed from the placed set: a host data set, still reported)
    noise_set = data.TensorDataset(torch.randn(len(order), 1, 28, 28), torch.as_tensor(order))
    noise_loader = data.DataLoader(noise_set, batch_size=64, num_workers=2)  # expect: PP505
    for _ in range(10):
        train(model, train_loader, optimizer, device)
        train(model, pool_loader, optimizer, device)
        train(model, val_loader, optimizer, device)
        train(model, noise_loader, optimizer, device)


def main_host(model, optimizer, path):
    device = torch.device("cuda")
    train_set, _ = make_host_sets(path)
    order = np.random.permutation(len(train_set))
    subset = data.Subset(train_set, order)
    train_loader = data.DataLoader(subset, batch_size=64, num_workers=2)  # expect: PP505
    for _ in range(10):
        train(model, train_loader, optimizer, device)
