"""torch-fix113: a module of this file built once in `__init__` and reused, a class built with this call's
arguments, and a `__call__` of a class not named for a loss are left alone."""

import torch
import torch.nn as nn


class SSIM(nn.Module):
    def __init__(self, window=3):
        super().__init__()
        self.pool = nn.AvgPool2d(window, 1)

    def forward(self, x, y):
        return self.pool(x) - self.pool(y)


class Criterion(nn.Module):
    def __init__(self):
        super().__init__()
        self.ssim = SSIM()

    def forward(self, pred, target):
        return self.ssim(pred, target).mean()


def compute_reprojection_loss(pred, target, window):
    ssim = SSIM(window)
    return ssim(pred, target).mean(1, True)


class Evaluator:
    def __call__(self, output, target):
        mse = nn.MSELoss()
        with torch.no_grad():
            return mse(output, target).item()


class LossHistory:
    """review23 item 15: a class that records losses is not one: its `__call__` runs once per epoch, at the
    logging step, and the metric it builds there is built once per epoch."""

    def __init__(self):
        self.values = []

    def __call__(self, output, target):
        l1 = nn.L1Loss()
        self.values.append(l1(output.detach(), target).item())
        return self.values[-1]
