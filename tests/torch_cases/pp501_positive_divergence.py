"""PP501: a divergence check that reads the loss every step is a read (so-vits-svc's diffusion solver,
Real-Time-Voice-Cloning's synthesizer)."""

import numpy as np
import torch


def train(model, loader, optimizer, device):
    for data in loader:
        loss = model(data["units"].to(device), data["mel"].to(device))
        if torch.isnan(loss):  # expect: PP501
            raise ValueError("nan loss")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_clipped(model, loader, optimizer, clip, window):
    for texts, mels in loader:
        loss = model(texts.cuda(), mels.cuda())
        optimizer.zero_grad()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        if np.isnan(grad_norm.cpu()):
            print("grad_norm was NaN!")
        optimizer.step()
        window.append(loss.item())  # expect: PP501
