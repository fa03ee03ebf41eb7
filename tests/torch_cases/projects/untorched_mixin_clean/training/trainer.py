"""The trainer class, built from the mixin; the mixin keeps its logged loss on the device (no read)."""

import torch

from training.trainer_iteration import TrainerIteration


class Trainer(TrainerIteration):
    def __init__(self, opt, network, loader, log):
        self.opt = opt
        self.network = network.to(opt.device)
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=opt.lr)
        self.loader = loader
        self.log = log

    def chamfer(self, a, b):
        return torch.cdist(a.transpose(2, 1), b).min(-1)[0].mean()

    def train_loop(self):
        for data in self.loader:
            self.data = data
            self.data.points = self.data.points.to(self.opt.device)
            self.train_iteration()
