"""PP501 (torch-fix67): a trainer method the step loop calls every step reads each loss of the step's dict
under a test that the dict holds that key (CCT's `_update_losses`, hold-out 20)."""

import torch


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value):
        self.sum += value
        self.count += 1


class Trainer:
    def __init__(self, model, optimizer, loader):
        self.model = model.cuda()
        self.optimizer = optimizer
        self.loader = loader
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
            self._update_losses(cur_losses)

    def _update_losses(self, cur_losses):
        if "loss_sup" in cur_losses.keys():  # noqa: SIM118
            self.loss_sup.update(cur_losses["loss_sup"].mean().item())  # expect: PP501
        if "loss_unsup" in cur_losses:
            self.loss_unsup.update(cur_losses["loss_unsup"].mean().item())


def build(model, loader):
    return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), loader)
