import torch
import torch.nn as nn
import torch.nn.functional as F
from utils.loss import CrossEntropy2d


class SoftCrossEntropy(nn.Module):
    def forward(self, logits, target):
        return torch.sum(-target * F.log_softmax(logits, dim=1), dim=1).mean()


def loss_calc(pred, label, gpu):
    label = label.long().cuda(gpu)
    criterion = CrossEntropy2d().cuda(gpu)  # expect: PP507 medium
    return criterion(pred, label)


def loss_calc_called(pred, label, gpu):
    label = label.long().cuda(gpu)
    return CrossEntropy2d().cuda(gpu)(pred, label)  # expect: PP507 medium


def compute_loss(pred, target):
    criterion = SoftCrossEntropy()  # expect: PP507 medium
    return criterion(pred, target)


def train(model, loader, optimizer, gpu):
    for images, labels in loader:
        images = images.cuda(gpu)
        optimizer.zero_grad()
        pred = model(images)
        loss = loss_calc(pred, labels, gpu) + loss_calc_called(pred, labels, gpu) + compute_loss(pred, labels)
        loss.backward()
        optimizer.step()


class MarginRankingLoss(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.margin = margin

    def get_loss(self, score):
        total = score.new_zeros(())
        for i in range(1, score.size(1)):
            ones = torch.ones_like(score[:, i:])
            loss_func = torch.nn.MarginRankingLoss(self.margin * i)  # expect: PP507 high
            total += loss_func(score[:, :-i], score[:, i:], ones)
        return total

    def forward(self, score):
        return self.get_loss(score)
