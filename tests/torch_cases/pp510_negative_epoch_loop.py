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
