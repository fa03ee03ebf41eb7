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
