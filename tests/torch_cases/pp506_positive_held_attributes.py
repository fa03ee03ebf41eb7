"""Plain CPU tensors an `__init__` makes and a method moves on every call (torch-fix48): an attribute of a
base class of the same module (indexed by the step's timesteps, made a Parameter only under an option), and
normalisers of a class nested in the model's class. Neither moves with `module.cuda()`."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class DDPM(nn.Module):
    def __init__(self, model, num_timesteps, learn_logvar=False):
        super().__init__()
        self.model = model
        self.num_timesteps = num_timesteps
        self.logvar = torch.full(fill_value=0.0, size=(num_timesteps,))
        if learn_logvar:
            self.logvar = nn.Parameter(self.logvar, requires_grad=True)


class LatentDiffusion(DDPM):
    def __init__(self, model, num_timesteps, scale):
        super().__init__(model, num_timesteps)
        self.scale = scale

    def forward(self, x, t):
        return self.p_losses(x, t)

    def p_losses(self, x, t):
        loss_simple = F.mse_loss(self.model(x, t), x, reduction="none").mean([1, 2, 3])
        logvar_t = self.logvar[t].to(x.device)  # expect: PP506 medium
        return (loss_simple / torch.exp(logvar_t) + logvar_t).mean()


class Detector(nn.Module):
    class Head(nn.Module):
        def __init__(self, hidden, num_classes):
            super().__init__()
            self.transformer = nn.Linear(hidden, num_classes * 4)
            self._normalize_mean = torch.tensor([0.0, 0.0, 0.0, 0.0], dtype=torch.float)

        def forward(self, features):
            return self.transformer(features)

        def loss(self, transformers, gt_transformers):
            mean = self._normalize_mean.to(device=gt_transformers.device)  # expect: PP506 medium
            return F.smooth_l1_loss(transformers, gt_transformers - mean)

    def __init__(self, hidden, num_classes):
        super().__init__()
        self.head = Detector.Head(hidden, num_classes)

    def forward(self, features):
        return self.head(features)
