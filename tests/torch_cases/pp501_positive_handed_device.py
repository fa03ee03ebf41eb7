"""A shared epoch def whose loss function moves each batch itself (D2-Net's `process_epoch`, hold-out 26): the
loop hands the batch, the model and the device to `loss_function`, which copies the batch to the GPU out of
sight, so the loop is no CPU loader loop and its per-step read waits (torch-fix93, `_hands_device`)."""

import numpy as np
import torch
from lib.data import MegaDepthDataset
from lib.loss import loss_function
from lib.model import D2Net
from torch.utils.data import DataLoader

use_cuda = torch.cuda.is_available()
device = torch.device("cuda:0" if use_cuda else "cpu")
model = D2Net(use_cuda=torch.cuda.is_available())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = DataLoader(MegaDepthDataset(), batch_size=1, num_workers=4)


def process_epoch(model, optimizer, dataloader, device):
    epoch_losses = []
    for batch in dataloader:
        optimizer.zero_grad()
        loss = loss_function(model, batch, device)
        current_loss = loss.data.cpu().numpy()  # expect: PP501
        epoch_losses.append(current_loss)
        loss.backward()
        optimizer.step()
    return np.mean(epoch_losses)


for _ in range(10):
    process_epoch(model, optimizer, train_loader, device)
