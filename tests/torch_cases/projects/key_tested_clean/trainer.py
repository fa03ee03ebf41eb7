"""PP501 (torch-fix67), clean twin of key_tested: the reads run only when the step's dict holds a logging
key, or when a list of logged names holds the key rather than the dict read, so they do not run on every step."""

import torch


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value):
        self.sum += value
        self.count += 1


class Trainer:
    def __init__(self, model, optimizer, loader, options):
        self.model = model.cuda()
        self.optimizer = optimizer
        self.loader = loader
        self.options = options
        self.loss_sup = AverageMeter()
        self.loss_unsup = AverageMeter()

    def train_epoch(self):
        self.model.train()
        for images, labels in self.loader:
            images, labels = images.cuda(non_blocking=True), labels.cuda(non_blocking=True)
            self.optimizer.zero_grad()
            total_loss, cur_losses = self.model(images, labels)
            total_loss.backward()
            self.optimizer.step()
            self._update_losses(cur_losses, self.options["logged"])

    def _update_losses(self, cur_losses, logged):
        if "log_now" in cur_losses:
            self.loss_sup.update(cur_losses["loss_sup"].mean().item())
        if "loss_unsup" in logged:
            self.loss_unsup.update(cur_losses["loss_unsup"].mean().item())


def build(model, loader):
    return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), loader, {"logged": []})
