"""A step def handed its optimizer, and a helper whose early return is not a switch: reads every step."""

import torch


def train_step(model, optimizer, x, y):
    loss = torch.nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return {"loss": loss.item()}  # expect: PP501


class Learner:
    def __init__(self, net, optimizer):
        self.net = net.cuda()
        self.optimizer = optimizer

    def _report(self, logits, labels):
        if labels is None:
            return
        print("confidence", torch.softmax(logits.detach(), 1).max(1).values.mean().item())  # expect: PP501

    def observe(self, loader):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            logits = self.net(x)
            loss = torch.nn.functional.cross_entropy(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self._report(logits, y)
