"""Accelerate-shaped loops that stay silent (torch-fix118): one told to run on the CPU
(`Accelerator(cpu=True)`), where a read waits for nothing; and a plain loop over a CPU DataLoader that
backpropagates with `loss.backward()` in a module that builds no Accelerator and moves nothing (a CPU
run, as before)."""

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader


def train_on_cpu(model, dataset, loss_func, epochs):
    accelerator = Accelerator(cpu=True)
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for _ in range(epochs):
        for images, labels in loader:
            loss = loss_func(model(images), labels)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            print(loss.item())
