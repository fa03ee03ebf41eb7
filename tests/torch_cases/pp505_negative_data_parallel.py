import torch
from torch.nn import DataParallel
from torch.utils.data import DataLoader


def train(generator_full, optimizer, dataset, num_epochs, device_ids):
    """The loader pins its batches: DataParallel scatters them from page-locked memory."""
    dataloader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=6, pin_memory=True)
    if torch.cuda.is_available():
        generator_full = DataParallel(generator_full, device_ids=device_ids)
    for _ in range(num_epochs):
        for x in dataloader:
            loss = generator_full(x).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


def fit_cpu(model, optimizer, dataset):
    """A plain model called on the batch moves nothing: no copy to pin."""
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=2)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
