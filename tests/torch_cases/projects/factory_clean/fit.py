import torch
from data.loaders import get_cpu_loader


def get_loader(dataset, batch_size):
    # this module's own maker of the same name, pinned
    return torch.utils.data.DataLoader(dataset, batch_size=batch_size, num_workers=4, pin_memory=True)


def fit(model, dataset, optimizer, device):
    loader = get_loader(dataset, 64)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def mean_of(dataset):
    total = 0.0
    for x, _ in get_cpu_loader(dataset, 256):
        total += float(x.mean())
    return total
