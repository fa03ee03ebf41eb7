"""The twin of pp501_positive_handed_device.py: the loss handed the device is summed on the device and read once
after the epoch (torch-fix93)."""

import torch
from lib.data import MegaDepthDataset
from lib.loss import loss_function
from lib.model import D2Net
from torch.utils.data import DataLoader

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
model = D2Net(use_cuda=torch.cuda.is_available())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = DataLoader(MegaDepthDataset(), batch_size=1, num_workers=4)


def process_epoch(model, optimizer, dataloader, device):
    total = torch.zeros((), device=device)
    for batch in dataloader:
        optimizer.zero_grad()
        loss = loss_function(model, batch, device)
        total += loss.detach()
        loss.backward()
        optimizer.step()
    return total.item() / len(dataloader)


for _ in range(10):
    process_epoch(model, optimizer, train_loader, device)
