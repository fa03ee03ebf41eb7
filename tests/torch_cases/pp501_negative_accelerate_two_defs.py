"""PP501 (review 24 item 4): a module with two Accelerate trainers, one on the GPU and one told to stay on the
CPU (`Accelerator(cpu=True)`). The GPU trainer's accelerator says nothing of the CPU one's: a read in the CPU
trainer's loop waits for nothing, as it does when that def is alone in its module."""

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader


def train_on_gpu(model, dataset, loss_func, epochs):
    accelerator = Accelerator(mixed_precision="fp16")
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for _ in range(epochs):
        for images, labels in loader:
            loss = loss_func(model(images), labels)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


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
