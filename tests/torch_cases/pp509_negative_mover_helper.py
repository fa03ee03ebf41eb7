"""PP509 negative: labels kept on the host (a helper named for the move is not called on them, and a method
named `cuda` of another object is no mover) before the criterion remaps each label with `lbl.item()`."""

import torch
import torch.nn.functional as F
from utils.utils import maybe_cuda


class ContinualLearner(torch.nn.Module):
    def __init__(self, model, opt, params):
        super().__init__()
        self.model = model
        self.opt = opt
        self.params = params
        self.lbl_inv_map = {}

    def criterion(self, logits, labels):
        labels = labels.clone()
        for i, lbl in enumerate(labels):
            labels[i] = self.lbl_inv_map[lbl.item()]
        return F.nll_loss(logits, maybe_cuda(labels))

    def train_learner(self, loader):
        for batch_x, batch_y in loader:
            batch_x = maybe_cuda(batch_x)
            logits = self.model.forward(batch_x)
            loss = self.criterion(logits, batch_y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
