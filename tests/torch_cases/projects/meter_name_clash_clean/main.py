"""review22 item 1: a_util.py defines a keeping AverageMeter, but main.py imports the one of meters.py, whose
`update` stores `float(val)`: no graph is kept."""

import torch
import torch.nn.functional as F
from meters import AverageMeter


def train(encoder, loader, optim, epochs, device):
    loss_meter = AverageMeter()
    for _ in range(epochs):
        for im_x, im_y in loader:
            optim.zero_grad()
            x, y = encoder(torch.cat([im_x.to(device), im_y.to(device)])).chunk(2)
            loss = F.mse_loss(x, y)
            loss_meter.update(loss, x.shape[0])
            loss.backward()
            optim.step()
