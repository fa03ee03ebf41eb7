"""PP509 negative (torch-fix152): `np.prod(m.size()).item()` per mask in HAT's criterion is a NumPy number
of the mask's sizes, read on the host: no element of the device tensor."""

import numpy as np
import torch


class Appr:
    def __init__(self, model, lamb):
        self.model = model
        self.lamb = lamb
        self.ce = torch.nn.CrossEntropyLoss()

    def criterion(self, outputs, targets, masks):
        reg = 0
        count = 0
        for m in masks:
            reg += m.sum()
            count += np.prod(m.size()).item()
        reg /= count
        return self.ce(outputs, targets) + self.lamb * reg, reg

    def train_epoch(self, t, x, y, optimizer, sbatch):
        r = torch.LongTensor(np.arange(x.size(0))).cuda()
        task = torch.LongTensor([t]).cuda()
        for i in range(0, len(r), sbatch):
            b = r[i : i + sbatch]
            images, targets = x[b], y[b]
            outputs, masks = self.model.forward(task, images)
            loss, _ = self.criterion(outputs[t], targets, masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
