"""Batches drawn from a generator over the loader, and kept on the CPU; and a generator that yields
something other than the loader's batches."""

import torch
from source.utils import infiniteloop
from torch.utils.data import DataLoader

device = torch.device("cuda:0")


def schedule(n):
    for k in range(n):
        yield k / n


def train_cpu(net_D, optim_D, loss_fn, dataset, total_steps):
    dataloader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)
    looper = infiniteloop(dataloader)
    for _step in range(total_steps):
        real = next(looper)
        loss = loss_fn(net_D(real))
        optim_D.zero_grad()
        loss.backward()
        optim_D.step()


def train_pinned(net_D, optim_D, loss_fn, dataset, total_steps):
    dataloader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
    looper = infiniteloop(dataloader)
    for _step in range(total_steps):
        real = next(looper).to(device, non_blocking=True)
        loss = loss_fn(net_D(real))
        optim_D.zero_grad()
        loss.backward()
        optim_D.step()


def warmup(net_D, optim_D, loss_fn, dataset, total_steps):
    dataloader = DataLoader(dataset, batch_size=64, num_workers=4)
    rates = schedule(total_steps)
    for x in dataloader:
        rate = next(rates)
        loss = loss_fn(net_D(x)) * rate
        optim_D.zero_grad()
        loss.backward()
        optim_D.step()
