"""Reads in a forward's branches that do not run on every training step: the evaluation branch of a
test for the training call, or a branch that also asks for an option."""

import torch
import torch.nn as nn


class YOLOLayer(nn.Module):
    def __init__(self, anchors):
        super().__init__()
        self.anchors = anchors
        self.SmoothL1Loss = nn.SmoothL1Loss()

    def forward(self, p_cat, img_size, targets=None, verbose=False):
        p_box = p_cat[..., :4]
        if targets is not None:
            lbox = self.SmoothL1Loss(p_box, targets.cuda())
            if verbose:
                print(lbox.item())
            return lbox
        return p_box


class Head(nn.Module):
    def __init__(self, criterion):
        super().__init__()
        self.criterion = criterion
        self.fc = nn.Linear(8, 2)

    def forward(self, x, labels=None):
        out = self.fc(x)
        if self.training:
            return out
        else:
            loss = self.criterion(out, labels)
            self.val_loss = loss.item()
        return torch.softmax(out, -1)
