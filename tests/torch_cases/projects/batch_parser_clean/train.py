"""The same script in a project where two modules define `parse_batch` and one of them only regroups
the batch: which one runs is not known, so nothing is said."""

import torch
from data_utils import TextMelCollate, TextMelLoader
from model import Tacotron2
from torch.utils.data import DataLoader


def prepare_dataloaders(hparams):
    trainset = TextMelLoader(hparams.training_files, hparams)
    collate_fn = TextMelCollate(hparams.n_frames_per_step)
    train_loader = DataLoader(
        trainset,
        num_workers=1,
        shuffle=True,
        batch_size=hparams.batch_size,
        pin_memory=False,
        drop_last=True,
        collate_fn=collate_fn,
    )
    return train_loader, collate_fn


def train(hparams):
    model = Tacotron2(hparams).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=hparams.learning_rate)
    criterion = torch.nn.MSELoss()
    train_loader, collate_fn = prepare_dataloaders(hparams)
    for _epoch in range(hparams.epochs):
        for batch in train_loader:
            model.zero_grad()
            x, y = model.parse_batch(batch)
            y_pred = model(x)
            loss = criterion(y_pred, y)
            loss.backward()
            optimizer.step()
