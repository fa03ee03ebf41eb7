import torch
from torch.nn import DataParallel
from torch.utils.data import DataLoader


def train(generator_full, optimizer, dataset, num_epochs, device_ids):
    """first-order-model: the batch goes straight into a DataParallel model, which scatters it to the GPUs."""
    dataloader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=6)  # expect: PP505 medium
    if torch.cuda.is_available():
        generator_full = DataParallel(generator_full, device_ids=device_ids)
    for _ in range(num_epochs):
        for x in dataloader:
            losses = generator_full(x)
            loss = sum(v.mean() for v in losses.values())
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
