import torch

from .validation import spectrogram, validate


def train(generator, optimizer, trainloader, valloader, device, epochs):
    torch.manual_seed(0)
    for _epoch in range(epochs):
        generator.train()
        for mel, audio in trainloader:
            mel, audio = mel.to(device, non_blocking=True), audio.to(device, non_blocking=True)
            loss = (generator(mel) - audio).abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(validate(generator, valloader, spectrogram, device))
