"""The clean twins: the schedule is kept on the device once, the noise drawn there, and a method that
copies host tensors runs only where nothing steps (an image grid after training)."""

import torch


class Settings:  # (a class without methods)
    steps = 1000


class DiffusionSchedule:
    def __init__(self, steps, beta_start, beta_end, device):
        self.betas = torch.linspace(beta_start, beta_end, steps).to(device)
        self.alpha_bars = torch.cumprod(1.0 - self.betas, dim=0)
        self.table = torch.linspace(0, 1, steps)

    def noisy(self, clean, noise, t):
        keep = self.alpha_bars[t].sqrt().reshape(-1, 1, 1, 1)
        return keep * clean + (1 - keep).sqrt() * noise

    def show_table(self, device):
        return self.table.to(device)


class Latents:
    def __init__(self, z_size):
        self.z_size = z_size

    def draw_latents(self, size, device):
        return torch.randn(size, self.z_size, device=device)

    def grid_latents(self, size):
        return torch.randn(size, self.z_size).cuda()


class UniformNoise:
    def draw_noise(self, n):
        return torch.rand(n, 16).cuda()


class GaussianNoise:
    def draw_noise(self, n):
        return torch.randn(n, 16).cuda()
