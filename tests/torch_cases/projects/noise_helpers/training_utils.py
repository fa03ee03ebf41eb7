"""improved-wgan-pytorch's shape: noise drawn on the host by a helper the training script imports."""

import torch


def gen_rand_noise(batch_size):
    noise = torch.randn(batch_size, 128)
    return noise


def gen_noise_on(batch_size, device):
    return torch.randn(batch_size, 128, device=device)


def load_batch(images, idx):
    batch = torch.zeros(len(idx), 3, 64, 64)
    for i, j in enumerate(idx):
        batch[i] = images[j]
    return batch


def calc_gradient_penalty(netD, real_data, fake_data, device):
    alpha = torch.rand(real_data.size(0), 1)
    alpha = alpha.expand(real_data.size(0), real_data.nelement() // real_data.size(0)).contiguous()
    alpha = alpha.view(real_data.size())
    alpha = alpha.to(device)  # expect: PP506
    interpolates = (alpha * real_data + (1 - alpha) * fake_data).requires_grad_(True)
    disc = netD(interpolates)
    ones = torch.ones(disc.size()).to(device)  # expect: PP506
    gradients = torch.autograd.grad(disc, interpolates, ones, create_graph=True)[0]
    return ((gradients.flatten(1).norm(2, dim=1) - 1) ** 2).mean()
