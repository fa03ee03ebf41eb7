"""Clean twin of pp501_positive_clipped_norm_loop.py: the clipped norm is logged only every 100 steps, and the
step's NaN test (`math.isinf(lr)`) is of a host number."""

import math

import torch
from torch.utils.tensorboard import SummaryWriter

writer = SummaryWriter()


def train(model, loader, optimizer, clip, lr):
    model = model.cuda()
    for step, (x, y) in enumerate(loader):
        x, y = x.cuda(), y.cuda()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        if step % 100 == 0:
            writer.add_scalar("grad_norm", norm, step)
        if math.isinf(lr):
            break
        optimizer.step()
