"""The twin of pp506_negative_self_test.py: the same `__main__` loop runs the model on every pass, but the
module reads real data (a `DataLoader`), so it is a run of the model, not a self-test on random inputs:
the noise drawn on the host and copied on every pass stays `high`."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Denoiser().to(device)
    loader = DataLoader(torch.load("images.pt"), batch_size=8, num_workers=4, pin_memory=True)
    for images in loader:
        images = images.to(device, non_blocking=True)
        noise = torch.randn(images.shape).to(device)  # expect: PP506 high
        restored = model(images + noise)
        torch.save(restored, "restored.pt")
