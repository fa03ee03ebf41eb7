"""torch-fix104: the same recorder updated only every N-th step: no per-step read."""

import torch
from recorder import build_recorder


class Runner:
    def __init__(self, cfg, net, trainer, optimizer):
        self.cfg, self.net, self.trainer, self.optimizer = cfg, net.cuda(), trainer, optimizer
        self.recorder = build_recorder(cfg)
        torch.backends.cudnn.benchmark = True

    def train_epoch(self, train_loader):
        self.net.train()
        for data in train_loader:
            data = {k: v.cuda() for k, v in data.items()}
            output = self.trainer.forward(self.net, data)
            self.optimizer.zero_grad()
            loss = output["loss"]
            loss.backward()
            self.optimizer.step()
            if self.recorder.step % self.cfg.log_interval == 0:
                self.recorder.update_loss_stats(output["loss_stats"])
            self.recorder.step += 1
