"""Pyraformer's shape: the batch goes to the device through a lambda, the loader comes from a def."""

import torch
from data_loader import ETTDataset
from torch.utils.data import DataLoader
from tqdm import tqdm


def prepare_dataloader(opt):
    train_set = ETTDataset(opt.data_path, flag="train")
    trainloader = DataLoader(
        train_set, batch_size=opt.batch_size, shuffle=True, num_workers=4, pin_memory=True
    )
    return trainloader, len(train_set)


def train_epoch(model, training_data, optimizer, opt):
    model.train()
    total_mse = 0
    for batch in tqdm(training_data, mininterval=2):
        sequence, label = map(lambda x: x.to(opt.device).squeeze(0), batch)
        optimizer.zero_grad()
        mse_losses = (model(sequence) - label) ** 2
        mse_losses.mean().backward()
        total_mse += mse_losses.sum().item()  # expect: PP501
        optimizer.step()
    return total_mse


def main(opt, model):
    training_data, _ = prepare_dataloader(opt)
    optimizer = torch.optim.Adam(model.parameters(), lr=opt.lr)
    for _ in range(opt.epoch):
        train_epoch(model, training_data, optimizer, opt)
