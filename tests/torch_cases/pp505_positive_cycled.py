"""GAN training (pytorch-gan-collections shape): batches drawn with next() from a generator that goes round
the loader for ever, copied to the GPU where they are drawn."""

import torch
from source.utils import infiniteloop
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda:0")


def cycle(loader):
    while True:
        for x, _ in loader:
            yield x


def train(net_G, net_D, optim_D, loss_fn, total_steps, batch_size, z_dim):
    dataset = datasets.CIFAR10("./data", train=True, transform=transforms.ToTensor())
    dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=4)  # expect: PP505 high
    looper = infiniteloop(dataloader)
    for _step in range(total_steps):
        z = torch.randn(batch_size, z_dim, device=device)
        real = next(looper).to(device)
        loss = loss_fn(net_D(real), net_D(net_G(z).detach()))
        optim_D.zero_grad()
        loss.backward()
        optim_D.step()


def train_local(net_D, optim_D, loss_fn, dataset, total_steps):
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)  # expect: PP505 medium
    batches = cycle(loader)
    for _step in range(total_steps):
        real = next(batches)
        real = real.cuda()
        loss = loss_fn(net_D(real))
        optim_D.zero_grad()
        loss.backward()
        optim_D.step()
