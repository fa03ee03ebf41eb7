"""Evaluation hooks PP504 leaves alone: a test loader with workers, and a validation loader over tensors
held in memory (nothing to decode per item)."""

import os

import pytorch_lightning as pl
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset, TensorDataset


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
    def __init__(self, backbone, root, transform, features):
        super().__init__()
        self.backbone, self.root, self.transform, self.features = backbone, root, transform, features

    def training_step(self, batch, batch_idx):
        x, _ = batch
        return self.backbone(x).mean()

    def val_dataloader(self):
        val_set = TensorDataset(self.features, torch.zeros(len(self.features)))
        return DataLoader(val_set, batch_size=8, shuffle=False)

    def test_dataloader(self):
        test_set = DefectImages(self.root, self.transform, "test")
        return DataLoader(test_set, batch_size=1, shuffle=False, num_workers=4, pin_memory=True)
