"""Super-resolution training on image crops decoded from disk every step. The training loader leaves
pin_memory out (high); the fine-tuning loader writes pin_memory=False out, an author's choice that is
reported below the default (medium)."""

import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


class CropFolder(Dataset):
    def __init__(self, paths):
        self.paths = paths
        self.to_tensor = transforms.ToTensor()

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.to_tensor(Image.open(self.paths[i]).convert("RGB"))


def train(model, paths, tune_paths, device="cuda"):
    loader = DataLoader(CropFolder(paths), batch_size=16, num_workers=4)  # expect: PP505 high
    tuning = DataLoader(CropFolder(tune_paths), 16, num_workers=2, pin_memory=False)  # expect: PP505 medium
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for _ in range(100):
        for hr in loader:
            hr = hr.to(device)
            loss = torch.nn.functional.l1_loss(model(hr), hr)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    for hr in tuning:
        hr = hr.to(device)
        loss = torch.nn.functional.l1_loss(model(hr), hr)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
