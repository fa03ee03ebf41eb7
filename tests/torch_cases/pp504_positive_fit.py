"""torch-fix41 (tuned on hold-out 15): loaders whose loop is in a trainer. The Lightning template hands its
MNIST loader to `trainer.fit`; BERT4Rec's `_get_train_loader` returns a loader over a dataset that masks
tokens per item, for a trainer class of another module."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset, random_split
from torchvision import transforms
from torchvision.datasets import MNIST


def cli_main(model, batch_size):
    dataset = MNIST("", train=True, download=True, transform=transforms.ToTensor())
    mnist_train, mnist_val = random_split(dataset, [55000, 5000])
    train_loader = DataLoader(mnist_train, batch_size=batch_size)  # expect: PP504 high
    val_loader = DataLoader(mnist_val, batch_size=batch_size)
    trainer = pl.Trainer(max_epochs=5)
    trainer.fit(model, train_loader, val_loader)


class MaskingDataset(Dataset):
    def __init__(self, sequences, mask_prob, rng):
        self.sequences, self.mask_prob, self.rng = sequences, mask_prob, rng

    def __len__(self):
        return len(self.sequences)

    def __getitem__(self, i):
        tokens = [t if self.rng.random() > self.mask_prob else 0 for t in self.sequences[i]]
        return torch.LongTensor(tokens), torch.LongTensor(self.sequences[i])


class BertLoaders:
    def __init__(self, sequences, args, rng):
        self.sequences, self.args, self.rng = sequences, args, rng

    def _get_train_loader(self):
        dataset = MaskingDataset(self.sequences, self.args.mask_prob, self.rng)
        dataloader = DataLoader(  # expect: PP504
            dataset, batch_size=self.args.train_batch_size, shuffle=True, pin_memory=True
        )
        return dataloader
