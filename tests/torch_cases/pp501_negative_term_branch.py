"""PP501: reads in a training step's `if` that is not a loss term's switch."""

import torch


class Engine:
    def __init__(self, model, optimizer, criterion, print_freq=50):
        self.model = model.cuda()
        self.optimizer = optimizer
        self.criterion = criterion
        self.print_freq = print_freq
        self.step = 0

    def forward_backward(self, imgs, pids):
        imgs, pids = imgs.cuda(), pids.cuda()
        loss = self.criterion(self.model(imgs), pids)
        summary = {}
        if self.step % self.print_freq == 0:
            loss = loss + 0
            summary["loss"] = loss.item()
        if self.model.training:
            summary["acc"] = torch.zeros(())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return summary
