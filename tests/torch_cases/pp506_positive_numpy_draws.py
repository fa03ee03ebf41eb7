"""Random numbers drawn by NumPy's generator and copied to the device every step are made on the host as
`torch.randn(...)` without `device=` is (torch-fix50): a schedule sampler's timesteps (`np.random.choice`
with the loss-aware weights) in a forward, and Gumbel noise for the masking of a generation loop. A seed
set with `np.random.seed` draws nothing."""

import numpy as np
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, net, n_steps):
        super().__init__()
        self.net = net
        self.weights = np.ones(n_steps) / n_steps

    def forward(self, x):
        p = self.weights / np.sum(self.weights)
        picked = np.random.choice(len(p), size=(x.size(0),), p=p)
        t = torch.from_numpy(picked).long().to(x.device)  # expect: PP506 high
        np.random.seed(0)
        return self.net(x, t)


def mask_by_random_topk(mask_len, probs, temperature=1.0):
    noise = torch.Tensor(temperature * np.random.gumbel(size=probs.shape)).cuda()  # expect: PP506 high
    confidence = torch.log(probs) + noise
    cut_off = torch.sort(confidence, dim=-1)[0][:, mask_len.long() - 1 : mask_len.long()]
    return confidence < cut_off


def generate(model, tokens, steps):
    for step in range(steps):
        probs = torch.softmax(model(tokens), dim=-1)
        masking = mask_by_random_topk(torch.tensor(step + 1), probs.max(-1)[0])
        tokens = torch.where(masking, tokens, probs.argmax(-1))
    return tokens
