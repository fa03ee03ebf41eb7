"""PP509: labels moved by a project helper named for the move (`maybe_cuda(batch_y, self.cuda)`) and handed
to the agent's criterion, which remaps each label through a host dict with `lbl.item()` on every step
(online-continual-learning's agents)."""

import torch
import torch.nn.functional as F
from utils.utils import maybe_cuda


class ContinualLearner(torch.nn.Module):
    def __init__(self, model, opt, params):
        super().__init__()
        self.model = model
        self.opt = opt
        self.params = params
        self.cuda = torch.cuda.is_available()
        self.lbl_inv_map = {}
        self.old_labels = []
        self.new_labels = []

    def criterion(self, logits, labels):
        labels = labels.clone()
        old_ss = F.log_softmax(logits[:, self.old_labels], dim=1)
        new_ss = F.log_softmax(logits[:, self.new_labels], dim=1)
        ss = torch.cat([old_ss, new_ss], dim=1)
        for i, lbl in enumerate(labels):
            labels[i] = self.lbl_inv_map[lbl.item()]  # expect: PP509
        return F.nll_loss(ss, labels)

    def train_learner(self, loader):
        for batch_x, batch_y in loader:
            batch_x = maybe_cuda(batch_x, self.cuda)
            batch_y = maybe_cuda(batch_y, self.cuda)
            logits = self.model.forward(batch_x)
            loss = self.criterion(logits, batch_y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
