"""The same dict of networks evaluated under no_grad, and a dict of loss functions called in a training loop."""

import torch


class Trainer:
    def __init__(self, model, criterion, data_loader, optimizer):
        self.model = model
        self.criterion = criterion
        self.data_loader = data_loader
        self.optimizer = optimizer

    @torch.no_grad()
    def _eval_step(self, batch):
        x, y = batch
        y_ = self.model["generator"](x.cuda())
        return self.criterion["mse"](y_, y.cuda()).item()

    def _eval_epoch(self):
        for key in self.model:
            self.model[key].eval()
        return [self._eval_step(batch) for batch in self.data_loader["dev"]]

    def _train_epoch(self):
        for x, y in self.data_loader["train"]:
            y_ = self.model["generator"](x.cuda())
            loss = self.criterion["mse"](y_, y.cuda())
            self.optimizer["generator"].zero_grad()
            loss.backward()
            self.optimizer["generator"].step()


def sample_grid(models, test_loader):
    models["G"].eval()
    with torch.no_grad():
        return torch.cat([models["G"](z.cuda()).cpu() for z, _ in test_loader])
