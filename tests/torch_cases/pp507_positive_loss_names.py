"""torch-fix113: a GAN's `calculate_loss_D` and the `__call__` of a class named for a loss run on every
training step (another module's loop calls them); a loss built in them is built every step (`medium` for the
GAN name: a copy of the module nothing imports has it too). So is a module of this file (`SSIM()`, an
`nn.Module` with layers) built in a loss def (`medium`)."""

import torch
import torch.nn as nn


def calculate_loss_D(model_D, real, fake):
    mse = torch.nn.MSELoss()  # expect: PP507 medium
    fake_label = model_D(fake.detach())
    real_label = model_D(real)
    return mse(fake_label, torch.zeros_like(fake_label)) + mse(real_label, torch.ones_like(real_label))


class LossSum:
    def __init__(self, feature_extractor, perceptual_ratio=0.005):
        self.feature_extractor = feature_extractor
        self.perceptual_ratio = perceptual_ratio

    def __call__(self, output, target):
        mse = nn.MSELoss()  # expect: PP507 high
        loss = mse(output, target)
        return loss + self.perceptual_ratio * mse(
            self.feature_extractor(output), self.feature_extractor(target)
        )


class SSIM(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu_x_pool = nn.AvgPool2d(3, 1)
        self.mu_y_pool = nn.AvgPool2d(3, 1)
        self.refl = nn.ReflectionPad2d(1)

    def forward(self, x, y):
        x, y = self.refl(x), self.refl(y)
        return self.mu_x_pool(x) - self.mu_y_pool(y)


def compute_reprojection_loss(pred, target):
    l1_loss = torch.abs(target - pred).mean(1, True)
    ssim = SSIM()  # expect: PP507 medium
    ssim_loss = ssim(pred, target).mean(1, True)
    return 0.85 * ssim_loss + 0.15 * l1_loss
