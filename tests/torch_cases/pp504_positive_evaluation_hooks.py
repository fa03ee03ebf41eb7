"""A LightningModule's evaluation hooks (hold-out 20's PatchCore shape): `val_dataloader` and
`test_dataloader` build an image-folder data set that opens and transforms each file, and return a loader
without workers; the Trainer's validation and test loops read every batch in the main process."""

import os

import pytorch_lightning as pl
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class DefectImages(Dataset):
    def __init__(self, root, transform, phase):
        self.paths = sorted(os.listdir(os.path.join(root, phase)))
        self.root, self.transform, self.phase = root, transform, phase

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = Image.open(os.path.join(self.root, self.phase, self.paths[i])).convert("RGB")
        return self.transform(image), 0


class PatchScorer(pl.LightningModule):
    def __init__(self, backbone, root, transform):
        super().__init__()
        self.backbone, self.root, self.transform = backbone, root, transform

    def training_step(self, batch, batch_idx):
        x, _ = batch
        return self.backbone(x).mean()

    def test_step(self, batch, batch_idx):
        x, _ = batch
        return torch.cdist(self.backbone(x), self.backbone(x)).min()

    def val_dataloader(self):
        val_set = DefectImages(self.root, self.transform, "val")
        return DataLoader(val_set, batch_size=8, shuffle=False)  # expect: PP504 high

    def test_dataloader(self):
        test_set = DefectImages(self.root, self.transform, "test")
        test_loader = DataLoader(test_set, batch_size=1, shuffle=False, num_workers=0)  # expect: PP504 high
        return test_loader
