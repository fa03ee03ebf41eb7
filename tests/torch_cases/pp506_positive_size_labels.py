"""An NT-Xent loss's forward builds the positives' labels in numpy from the batch's size alone
(`np.repeat(np.arange(n), m)` with `n = z.shape[0]`) and copies them to the device on every step for the
accuracy (simclr-pytorch's `NTXent.forward`); torch could make them there."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class NTXent(nn.Module):
    def __init__(self, tau=1.0, multiplier=2):
        super().__init__()
        self.tau = tau
        self.multiplier = multiplier

    def forward(self, z):
        n = z.shape[0]
        z = F.normalize(z, p=2, dim=1) / np.sqrt(self.tau)
        logprob = F.log_softmax(z @ z.t(), dim=1)
        m = self.multiplier
        labels = (np.repeat(np.arange(n), m) + np.tile(np.arange(m) * n // m, n)) % n
        labels = labels.reshape(n, m)[:, 1:].reshape(-1)
        loss = -logprob[np.repeat(np.arange(n), m - 1), labels].sum() / n
        target = torch.LongTensor(labels.reshape(n, m - 1)).to(logprob.device)  # expect: PP506 high
        acc = (logprob.argmax(1, keepdim=True) == target).float().mean()
        return loss, acc
