"""WGAN-GP's gradient penalty (improved-wgan-pytorch): the interpolation weights drawn on the CPU, bound
again to themselves expanded and viewed, then copied over on every critic step."""

import torch
from torch import autograd


def calc_gradient_penalty(netD, real_data, fake_data, batch_size, dim, device, gp_lambda):
    alpha = torch.rand(batch_size, 1)
    alpha = alpha.expand(batch_size, int(real_data.nelement() / batch_size)).contiguous()
    alpha = alpha.view(batch_size, 3, dim, dim)
    alpha = alpha.to(device)  # expect: PP506 high
    interpolates = (alpha * real_data.detach() + (1 - alpha) * fake_data.detach()).requires_grad_(True)
    disc = netD(interpolates)
    gradients = autograd.grad(disc, interpolates, torch.ones_like(disc), create_graph=True)[0]
    return ((gradients.view(batch_size, -1).norm(2, dim=1) - 1) ** 2).mean() * gp_lambda


def train(netD, netG, loader, optimizer_d, device, dim=64):
    for real_data, _ in loader:
        real_data = real_data.to(device)
        fake_data = netG(torch.randn(real_data.size(0), 128, device=device)).detach()
        gradient_penalty = calc_gradient_penalty(
            netD, real_data, fake_data, real_data.size(0), dim, device, 10
        )
        d_cost = netD(fake_data).mean() - netD(real_data).mean() + gradient_penalty
        optimizer_d.zero_grad()
        d_cost.backward()
        optimizer_d.step()
