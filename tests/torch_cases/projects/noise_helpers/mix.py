"""mixup's shape: the permutation is drawn on the host inside a helper the training loop calls."""

import random

import torch


def mixup_data(x, y, alpha=1.0):
    lam = random.betavariate(alpha, alpha)
    index = torch.randperm(x.size(0)).cuda()  # expect: PP506
    return lam * x + (1 - lam) * x[index], y, y[index], lam


def position_grid(n):
    grid = torch.arange(n).cuda()
    return grid.float() / n


def sample_images(generator, n):
    z = torch.randn(n, 128).cuda()
    return generator(z)


def evaluate_noise(n):
    noise = torch.randn(n, 8).cuda()
    return noise.mean()
