"""Batches unpacked on a line of their own before the copy, and a loader iterated through a progress bar bound
to a name first (hold-out 4 misses)."""

from torch.utils.data import DataLoader
from tqdm import tqdm


def train_vocoder(trainset, model, criterion, optimizer, epochs):
    loader = DataLoader(trainset, num_workers=1, batch_size=12, pin_memory=False)  # expect: PP505 medium
    for _ in range(epochs):
        for batch in loader:
            mel, audio = batch
            mel, audio = mel.cuda(), audio.cuda()
            loss = criterion(model((mel, audio)))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_diffusion(dataset, ddpm, optim, device, epochs):
    dataloader = DataLoader(dataset, batch_size=128, shuffle=True, num_workers=16)  # expect: PP505 medium
    for _ in range(epochs):
        bar = tqdm(dataloader)
        for x, _ in bar:
            optim.zero_grad()
            loss = ddpm(x.to(device))
            loss.backward()
            optim.step()
