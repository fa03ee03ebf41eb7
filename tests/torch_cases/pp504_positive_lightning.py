"""A Lightning data module (donkeycar's shape): the Trainer's fit loop steps on the loader
`train_dataloader()` returns; every image is opened and transformed in the training process."""

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
    def __init__(self, records, transform, batch_size):
        super().__init__()
        self.train_dataset = TubDataset(records, transform)
        self.batch_size = batch_size

    def train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.batch_size, num_workers=0)  # expect: PP504


class NamedLoaderModule(pl.LightningDataModule):
    """torch-fix23: the hook binds the loader to a name and returns the name (deepchem's data module)."""

    def __init__(self, records, transform, batch_size):
        super().__init__()
        self.train_dataset = TubDataset(records, transform)
        self.batch_size = batch_size

    def train_dataloader(self):
        dataloader = DataLoader(  # expect: PP504
            self.train_dataset,
            batch_size=self.batch_size,
            shuffle=True,
        )
        return dataloader
