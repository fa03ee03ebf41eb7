"""torch-fix104: running totals of the loss tensors formatted as means for the progress bar on every step
(the wheat detector's `t.set_description(f't (l={running_loss/(idx+1):.3f})')`): the totals are device
tensors, so making their digits waits for the GPU."""

import torch
from tqdm import tqdm

device = torch.device("cuda")


def train(model, loader, optimizer, criterion):
    running_loss = 0.0
    running_mask = 0.0
    t = tqdm(loader)
    for idx, (img, hm) in enumerate(t):
        img, hm = img.to(device), hm.to(device)
        loss, mask_loss = criterion(model(img), hm)
        running_loss += loss.detach()
        running_mask += mask_loss.detach()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        n = idx + 1
        t.set_description(f"l={running_loss / n:.3f} m={running_mask / n:.4f}")  # expect: PP501
