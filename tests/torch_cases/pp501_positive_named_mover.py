"""Batches moved by a project helper named for the move and given a CUDA switch (`maybe_cuda(x, self.cuda)`,
the online-continual-learning agents, hold-out 48): the loop runs on the GPU."""

import torch
from utils import maybe_cuda


class Agent:
    def __init__(self, model, opt, params):
        self.model = model
        self.opt = opt
        self.cuda = params.cuda
        self.mem_iters = params.mem_iters
        self.criterion = torch.nn.CrossEntropyLoss()

    def train_learner(self, train_loader, meter):
        for batch_x, batch_y in train_loader:
            batch_x = maybe_cuda(batch_x, self.cuda)
            batch_y = maybe_cuda(batch_y, self.cuda)
            for _ in range(self.mem_iters):
                logits = self.model.forward(batch_x)
                loss = self.criterion(logits, batch_y)
                _, pred_label = torch.max(logits, 1)
                correct_cnt = (pred_label == batch_y).sum().item() / batch_y.size(0)  # expect: PP501
                meter.update(correct_cnt, batch_y.size(0))
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
