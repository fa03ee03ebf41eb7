"""A YOLO-style layer whose forward computes its losses and reads them on the host in the branch that
runs when targets are given: every training step, for every layer."""

import torch
import torch.nn as nn


class YOLOLayer(nn.Module):
    def __init__(self, anchors):
        super().__init__()
        self.anchors = anchors
        self.SmoothL1Loss = nn.SmoothL1Loss()
        self.SoftmaxLoss = nn.CrossEntropyLoss()

    def forward(self, p_cat, img_size, targets=None):
        p_box, p_conf = p_cat[..., :4], p_cat[..., 4:6]
        if targets is not None:
            tconf, tbox = targets[0].cuda(), targets[1].cuda()
            mask = tconf > 0
            lbox = self.SmoothL1Loss(p_box[mask], tbox[mask])
            lconf = self.SoftmaxLoss(p_conf, tconf)
            loss = lbox + lconf
            return loss, loss.item(), lbox.item(), lconf.item()  # expect: PP501
        return torch.cat([p_box, p_conf], dim=-1)


class Head(nn.Module):
    def __init__(self, criterion):
        super().__init__()
        self.criterion = criterion
        self.fc = nn.Linear(8, 2)

    def forward(self, x, labels=None):
        out = self.fc(x)
        if self.training:
            self.loss = self.criterion(out, labels)
            self.last_loss = self.loss.item()  # expect: PP501
        return out
