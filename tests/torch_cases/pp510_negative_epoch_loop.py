"""A runner's epoch loop empties the cache before each call of its own `fit`, whose batch loop trains, and
saves the model after it (hold-out 17's ReChorus `BaseRunner.train`): once per epoch, silent."""

import gc

import torch


class BaseRunner:
    def __init__(self, epochs, optimizer):
        self.epoch = epochs
        self.optimizer = optimizer

    def train(self, model, data):
        for epoch in range(self.epoch):
            gc.collect()
            torch.cuda.empty_cache()
            loss = self.fit(model, data, epoch=epoch + 1)
            print(epoch, loss)
            model.save_model()

    def fit(self, model, data, epoch=-1):
        model.train()
        losses = []
        for batch in data:
            batch = {k: v.cuda() for k, v in batch.items()}
            self.optimizer.zero_grad()
            loss = model.loss(model(batch), batch)
            loss.backward()
            self.optimizer.step()
            losses.append(loss.detach())
        return torch.stack(losses).mean().item()


class Runner:
    """torch-fix84: an epoch loop empties the cache before its nested batch loop; the scheduler's `step()` in
    its own body is no optimizer step (classifier-balancing's `run_networks.py`): once per epoch, silent."""

    def __init__(self, networks, optimizer, model_optimizer_scheduler):
        self.networks = networks
        self.model_optimizer = optimizer
        self.model_optimizer_scheduler = model_optimizer_scheduler

    def train(self, loader, epochs):
        for epoch in range(epochs):
            torch.cuda.empty_cache()
            self.model_optimizer_scheduler.step()
            for inputs, labels in loader:
                self.model_optimizer.zero_grad()
                loss = self.networks["classifier"](inputs.cuda()).sub(labels.cuda()).pow(2).mean()
                loss.backward()
                self.model_optimizer.step()
            print(epoch)
