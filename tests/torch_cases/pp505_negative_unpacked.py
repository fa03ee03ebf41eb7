"""Unpacked batches that stay on the CPU, and a progress bar over a pinned loader."""

from torch.utils.data import DataLoader
from tqdm import tqdm


def train_vocoder(trainset, model, criterion, optimizer, epochs):
    loader = DataLoader(trainset, num_workers=4, batch_size=12)
    model = model.cuda()
    for _ in range(epochs):
        for batch in loader:
            mel, audio = batch
            loss = criterion(model((mel, audio)))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_diffusion(dataset, ddpm, optim, device, epochs):
    dataloader = DataLoader(dataset, batch_size=128, shuffle=True, num_workers=16, pin_memory=True)
    for _ in range(epochs):
        bar = tqdm(dataloader)
        for x, _ in bar:
            optim.zero_grad()
            loss = ddpm(x.to(device, non_blocking=True))
            loss.backward()
            optim.step()
