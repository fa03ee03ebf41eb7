"""A trainer that keeps its networks in a dict and calls them by name in the evaluation step (ParallelWaveGAN),
and a GAN script with a dict of models evaluated in a loop."""

import torch


class Trainer:
    def __init__(self, model, criterion, data_loader):
        self.model = model  # {"generator": ..., "discriminator": ...}
        self.criterion = criterion
        self.data_loader = data_loader
        self.total_eval_loss = {}

    def _eval_step(self, batch):
        x, y = batch
        x, y = x.cuda(), y.cuda()
        y_ = self.model["generator"](*x)
        p_ = self.model["discriminator"](y_)
        loss = self.criterion["mse"](p_, p_.new_ones(p_.size()))
        self.total_eval_loss["eval/loss"] = loss.item()  # expect: PP501

    def _eval_epoch(self):
        for key in self.model:
            self.model[key].eval()
        for batch in self.data_loader["dev"]:
            self._eval_step(batch)  # expect: PP503 high


def sample_grid(models, test_loader):
    models["G"].eval()
    images = []
    for z, _ in test_loader:
        images.append(models["G"](z.cuda()).cpu())  # expect: PP503 high  # expect: PP501
    return torch.cat(images)
