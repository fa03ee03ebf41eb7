"""Near misses of the attributes held on the host (torch-fix48): a base class that registers its table as a
buffer (it moves with the module) and an attribute a method rebinds."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Schedule(nn.Module):
    def __init__(self, model, num_timesteps):
        super().__init__()
        self.model = model
        self.register_buffer("logvar", torch.zeros(num_timesteps))


class Diffusion(Schedule):
    def forward(self, x, t):
        return self.p_losses(x, t)

    def p_losses(self, x, t):
        logvar_t = self.logvar[t].to(x.device)
        return (F.mse_loss(self.model(x, t), x) / torch.exp(logvar_t)).mean()


class Scaled(nn.Module):
    def __init__(self, layer):
        super().__init__()
        self.layer = layer
        self.scale = torch.ones(1)

    def set_scale(self, scale):
        self.scale = scale

    def forward(self, x):
        return self.layer(x) * self.scale.to(x.device)
