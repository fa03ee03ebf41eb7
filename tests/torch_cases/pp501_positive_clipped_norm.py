"""A speech solver's `backward` skips the optimizer step when the clipped gradient norm is NaN (the ASR solvers of
hold-outs 14, 19 and 28): `clip_grad_norm_` returns the total norm as a tensor on the parameters' device, and
`math.isnan` turns it into a Python float, so every step waits for the backward to finish (torch-fix99)."""

import math

import torch


class Solver:
    def __init__(self, model, lr, clip):
        self.model = model.cuda()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.clip = clip
        self.step = 0

    def backward(self, loss):
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        if math.isnan(grad_norm):  # expect: PP501
            print("grad norm is NaN at step", self.step)
        else:
            self.optimizer.step()
        self.optimizer.zero_grad()
        return grad_norm
