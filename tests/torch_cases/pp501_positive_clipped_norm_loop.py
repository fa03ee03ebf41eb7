"""A training loop logs the clipped gradient norm every step: `clip_grad_norm_` returns the norm as a tensor on
the parameters' device, so `add_scalar` turns it into a number on the host and waits for the backward each step
(torch-fix99, with pp501_positive_clipped_norm.py)."""

import torch
from torch.utils.tensorboard import SummaryWriter

writer = SummaryWriter()


def train(model, loader, optimizer, clip):
    model = model.cuda()
    for step, (x, y) in enumerate(loader):
        x, y = x.cuda(), y.cuda()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        writer.add_scalar("grad_norm", norm, step)  # expect: PP501
        optimizer.step()
