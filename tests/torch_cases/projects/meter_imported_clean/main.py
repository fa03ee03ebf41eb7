"""torch-fix104: the same meter given detached losses or host numbers keeps no graph."""

import torch
import torch.nn.functional as F
from util import AverageMeter


def train(encoder, loader, optim, epochs, device):
    loss_meter = AverageMeter("total_loss")
    item_meter = AverageMeter("total_loss_item")
    for _ in range(epochs):
        loss_meter.reset()
        for im_x, im_y in loader:
            optim.zero_grad()
            x, y = encoder(torch.cat([im_x.to(device), im_y.to(device)])).chunk(2)
            loss = F.mse_loss(x, y)
            loss_meter.update(loss.detach(), x.shape[0])
            loss.backward()
            optim.step()
            if epochs > 100:
                item_meter.update(loss.item())
