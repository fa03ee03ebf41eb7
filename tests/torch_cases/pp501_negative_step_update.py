"""Update defs that read nothing of the GPU's: the learning rate as a float, a loss returned detached, and
a def that steps an optimizer over its own inner loop (judged as a loop)."""

import torch


class Trainer:
    def __init__(self, model, gen_opt, device="cuda"):
        self.model = model.to(device)
        self.gen_opt = gen_opt
        self.lr = 1e-4

    def gen_update(self, content, style):
        self.gen_opt.zero_grad()
        total = self.model(content, style, "gen_update")
        self.gen_opt.step()
        return float(self.lr), total.detach()

    def inner_update(self, batches):
        for x in batches:
            self.gen_opt.zero_grad()
            self.model(x, None, "gen_update")
            self.gen_opt.step()


def train_step(model, optimizer, x, y, lr):
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return float(lr), loss.detach()


def full_batch_epoch(model, optimizer, loader):
    """One step per epoch over the gradients of every batch: the read after the loop runs once an epoch."""
    optimizer.zero_grad()
    total = 0.0
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        total += loss.detach()
    optimizer.step()
    return total.item()
