"""Lightning hooks that load with workers, and an evaluation hook (not the training loader)."""

import pytorch_lightning as pl
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class TubDataset(Dataset):
    def __init__(self, records, transform):
        self.records, self.transform = records, transform

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        record = self.records[i]
        return self.transform(Image.open(record.image_path)), record.angle


class TubDataModule(pl.LightningDataModule):
    def __init__(self, train_records, val_records, transform, batch_size):
        super().__init__()
        self.train_dataset = TubDataset(train_records, transform)
        self.val_dataset = TubDataset(val_records, transform)
        self.batch_size = batch_size

    def train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.batch_size, num_workers=4, pin_memory=True)

    def val_dataloader(self):
        return DataLoader(self.val_dataset, batch_size=self.batch_size, num_workers=0)


class NamedLoaderModule(pl.LightningDataModule):
    """torch-fix23: a named loader with workers, and a named loader of the prediction hook."""

    def __init__(self, records, transform, batch_size):
        super().__init__()
        self.train_dataset = TubDataset(records, transform)
        self.batch_size = batch_size

    def train_dataloader(self):
        dataloader = DataLoader(
            self.train_dataset, batch_size=self.batch_size, num_workers=4, pin_memory=True
        )
        return dataloader

    def predict_dataloader(self):
        dataloader = DataLoader(self.train_dataset, batch_size=self.batch_size)
        return dataloader
