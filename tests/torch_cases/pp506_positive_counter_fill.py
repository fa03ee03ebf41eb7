"""A timestep tensor filled from the sampling loop's counter on the host and copied at every denoising step
(torch-fix102): `torch.tensor([t] * b)` with `t = i / steps`, `torch.as_tensor(i)` under `reversed(range(T))`
wrapped in `tqdm`, and a one-element mask length from `math`/NumPy functions of the step. Each differs at every
pass by the count alone: `torch.full((b,), t, device=...)` makes it on the device."""

import math

import numpy as np
import torch
from tqdm import tqdm


@torch.no_grad()
def sample_flow(model, z, cond, sample_steps=50):
    b = z.size(0)
    dt = 1.0 / sample_steps
    for i in range(sample_steps, 0, -1):
        t = i / sample_steps
        t = torch.tensor([t] * b).to(z.device)  # expect: PP506 high
        z = z - dt * model(z, t, cond)
    return z


@torch.no_grad()
def sample_ddpm(model, scheduler, xt, num_timesteps, device):
    for i in tqdm(reversed(range(num_timesteps))):
        noise_pred = model(xt, torch.as_tensor(i).unsqueeze(0).to(device))  # expect: PP506 high
        xt = scheduler.sample_prev_timestep(xt, noise_pred, i)
    return xt


@torch.no_grad()
def decode(model, tokens, num_iter, unknown):
    for step in range(num_iter):
        logits = model(tokens)
        ratio = 1.0 * (step + 1) / num_iter
        mask_ratio = np.cos(math.pi / 2.0 * ratio)
        mask_len = torch.Tensor([np.floor(unknown * mask_ratio)]).cuda()  # expect: PP506 high
        tokens = torch.where(logits.max(-1).values > mask_len, logits.argmax(-1), tokens)
    return tokens
