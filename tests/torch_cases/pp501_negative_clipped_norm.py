"""Clean twin of pp501_positive_clipped_norm.py: the NaN test of the clipped norm stays on the device
(`torch.isnan(...).any()` counted on the device), and the norm is handed back detached."""

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
        if torch.isnan(grad_norm).any():
            self.skipped += 1
        self.optimizer.step()
        self.optimizer.zero_grad()
        return grad_norm.detach()
