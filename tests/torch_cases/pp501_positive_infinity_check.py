"""A divergence test that reads the loss before the backward of every step (`or` runs it unless it is NaN)."""

import torch


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model.cuda()
        self.optimizer = optimizer

    def unit_train(self, data):
        xs, ys = data
        xs, ys = xs.cuda(non_blocking=True), ys.cuda(non_blocking=True)
        loss = torch.nn.functional.cross_entropy(self.model(xs), ys)
        if torch.isnan(loss) or loss.item() == float("inf"):  # expect: PP501
            return None
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def unit_check(self, data, step):
        xs, ys = data
        xs, ys = xs.cuda(non_blocking=True), ys.cuda(non_blocking=True)
        loss = torch.nn.functional.cross_entropy(self.model(xs), ys)
        if step % 100 == 0 and loss.item() == float("inf"):
            return None
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()
