"""torch-fix104: a training loop handing its undetached losses to that meter (align_uniform's
`loss_meter.update(loss, x.shape[0])`): the meter's sum keeps every step's graph until the epoch ends."""

import torch
import torch.nn.functional as F
from util import AverageMeter


def train(encoder, loader, optim, epochs, device):
    loss_meter = AverageMeter("total_loss")
    time_meter = AverageMeter("iter_time")
    for _ in range(epochs):
        loss_meter.reset()
        for im_x, im_y in loader:
            optim.zero_grad()
            x, y = encoder(torch.cat([im_x.to(device), im_y.to(device)])).chunk(2)
            loss = F.mse_loss(x, y)
            loss_meter.update(loss, x.shape[0])  # expect: PP502
            loss.backward()
            optim.step()
            time_meter.update(0.1)
