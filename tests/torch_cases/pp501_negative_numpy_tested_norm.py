"""A detection trainer's step def tests the clipped norm with `np.isfinite`: NumPy cannot take a CUDA tensor
(`Tensor.__array__` raises), so code that runs this way already holds the norm on the host and the test waits
for nothing (review 21 item 3)."""

import numpy as np
import torch


class DetTrainer:
    def __init__(self, detector, lr, grad_clip):
        self.detector = detector.cuda()
        self.optimizer = torch.optim.SGD(self.detector.parameters(), lr=lr, momentum=0.9)
        self.grad_clip = grad_clip

    def update(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(self.detector.parameters(), self.grad_clip)
        if np.isfinite(norm):
            self.optimizer.step()
        else:
            print("non-finite gradient norm, update skipped")
        return norm
