"""review22 item 1: the meter_imported loop with the keeping class imported under an alias
(`from util import AverageMeter as Meter`): the meter still keeps every step's graph."""

import torch
import torch.nn.functional as F
from util import AverageMeter as Meter


def train(encoder, loader, optim, epochs, device):
    loss_meter = Meter("total_loss")
    time_meter = Meter("iter_time")
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
