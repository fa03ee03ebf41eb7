"""Loss modules that print, silent: one prints only its settings, one a loss it already read as a number
under a debugging switch, and a model (not a loss) prints its input's shape."""

import torch
from torch import nn


class Loss(nn.Module):
    def __init__(self, weight_angle=10, debug=False):
        super().__init__()
        self.weight_angle = weight_angle
        self.debug = debug
        print("angle weight", weight_angle)

    def forward(self, gt_score, pred_score):
        dice_loss = 1.0 - 2 * torch.sum(gt_score * pred_score) / (torch.sum(gt_score + pred_score) + 1e-5)
        if self.debug:
            print("dice loss", dice_loss)
        return dice_loss


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        print("input", x.shape)
        return self.conv(x)
