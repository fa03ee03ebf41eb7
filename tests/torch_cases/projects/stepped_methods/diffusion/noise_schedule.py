"""A DDPM scheduler's shape: a plain class whose schedule is made on the host in `__init__` and copied to
the batch's device on every call of the method the training loop runs."""

import torch


class DiffusionSchedule:
    def __init__(self, steps, beta_start, beta_end):
        self.steps = steps
        self.betas = torch.linspace(beta_start, beta_end, steps)
        self.alphas = 1.0 - self.betas
        self.alpha_bars = torch.cumprod(self.alphas, dim=0)
        self.root_bars = torch.sqrt(self.alpha_bars)
        self.root_rest = torch.sqrt(1 - self.alpha_bars)

    def noisy(self, clean, noise, t):
        size = clean.shape[0]
        keep = self.root_bars.to(clean.device)[t].reshape(size, 1, 1, 1)  # expect: PP506
        mix = self.root_rest.to(clean.device)[t].reshape(size, 1, 1, 1)  # expect: PP506
        return keep * clean + mix * noise
