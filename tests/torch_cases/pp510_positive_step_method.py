"""A speech trainer whose base class runs `self.unit_train(data)` for every batch; the subclass's step waits
for the GPU after the optimizer step, as does a model's own `train_epoch` under a CUDA flag."""

import torch
from torch import nn


class Trainer:
    def __init__(self, model, optimizer, use_cuda=True):
        self.model = model
        self.optimizer = optimizer
        self.use_cuda = use_cuda

    def unit_train(self, data):
        raise NotImplementedError

    def train_epoch(self, data_loader):
        self.model.train()
        losses = []
        for data in data_loader:
            losses.append(self.unit_train(data))
        return sum(losses) / max(len(losses), 1)


class CtcTrainer(Trainer):
    def unit_train(self, data):
        xs, ys, frame_lens, label_lens = data
        try:
            if self.use_cuda:
                xs = xs.cuda(non_blocking=True)
            ys_hat, frame_lens = self.model(xs, frame_lens)
            loss = nn.functional.ctc_loss(ys_hat, ys, frame_lens, label_lens)
            loss_value = loss.item()  # expect: PP501
            self.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), 400)
            self.optimizer.step()
            if self.use_cuda:
                torch.cuda.synchronize()  # expect: PP510 medium
            del loss
            return loss_value
        except RuntimeError as e:
            print(e)
            return None


class CapsuleModel:
    def __init__(self, encoder, use_cuda=True):
        self.encoder = encoder.cuda() if use_cuda else encoder
        self.optimizer = torch.optim.Adam(self.encoder.parameters())
        self.use_cuda = use_cuda

    def train_epoch(self, data_loader):
        for xs, ys in data_loader:
            if self.use_cuda:
                xs, ys = xs.cuda(), ys.cuda()
            self.optimizer.zero_grad()
            loss = nn.functional.cross_entropy(self.encoder(xs), ys)
            loss.backward()
            self.optimizer.step()
            if self.use_cuda:
                torch.cuda.synchronize()  # expect: PP510 high
