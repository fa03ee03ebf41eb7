"""PP501: a training step's read beside a loss term that a weight switches on (deep-person-reid's triplet
engine): when the term is on, its branch runs every step."""

import torch


class TripletEngine:
    def __init__(self, model, optimizer, criterion_t, criterion_x, weight_t=1.0, weight_x=1.0):
        self.model = model.cuda()
        self.optimizer = optimizer
        self.criterion_t = criterion_t
        self.criterion_x = criterion_x
        self.weight_t = weight_t
        self.weight_x = weight_x

    def forward_backward(self, imgs, pids):
        imgs, pids = imgs.cuda(), pids.cuda()
        outputs, features = self.model(imgs)
        loss = 0
        summary = {}
        if self.weight_t > 0:
            loss_t = self.criterion_t(features, pids)
            loss += self.weight_t * loss_t
            summary["loss_t"] = loss_t.item()  # expect: PP501
        if self.weight_x > 0:
            loss_x = self.criterion_x(outputs, pids)
            loss += self.weight_x * loss_x
            summary["loss_x"] = loss_x.item()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return summary


def accuracy(outputs, pids):
    return (torch.argmax(outputs, 1) == pids).float().mean()
