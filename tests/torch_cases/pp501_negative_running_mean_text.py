"""torch-fix104: running totals kept as Python numbers from reads made every N steps, formatted every
step: the numbers are on the host already, formatting them waits for nothing."""

import torch
from tqdm import tqdm

device = torch.device("cuda")


def train(model, loader, optimizer, criterion, every):
    running_loss = 0.0
    t = tqdm(loader)
    for idx, (img, hm) in enumerate(t):
        img, hm = img.to(device), hm.to(device)
        loss = criterion(model(img), hm)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if idx % every == 0:
            running_loss += loss.item()
        t.set_description(f"t (l={running_loss / (idx + 1):.3f})")
