"""Reads in a loop over the step's dict of outputs that pick entries by key (`if k in epoch_results:`,
hold-out 17's VL-T5 trainers) or go through `sorted(...)` (pysot's `for k, v in sorted(outputs.items()):`,
after a finiteness check that decides whether to step): the same entries every step, one wait each."""

import math

import torch


class Trainer:
    def __init__(self, model, optim, loader):
        self.model = model.cuda()
        self.optim = optim
        self.train_loader = loader

    def train(self, epochs):
        for _epoch in range(epochs):
            epoch_results = {"loss": 0.0}
            for batch in self.train_loader:
                results = self.model.train_step(batch)
                loss = results["loss"]
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optim.step()
                for param in self.model.parameters():
                    param.grad = None
                for k, v in results.items():
                    if k in epoch_results:
                        epoch_results[k] += v.item()  # expect: PP501


def train_tracker(model, loader, optimizer, meter):
    model = model.cuda()
    for data in loader:
        outputs = model(data)
        loss = outputs["total_loss"]
        if math.isfinite(loss.data.item()):
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        batch_info = {}
        for k, v in sorted(outputs.items()):
            batch_info[k] = v.data.item()  # expect: PP501
        meter.update(**batch_info)


def pretrain(model, optim, loader, epoch_results):
    model.cuda()
    for batch in loader:
        results = model.train_step(batch)
        results["loss"].backward()
        optim.step()
        for k, v in results.items():
            if k in epoch_results:
                if isinstance(v, int):
                    epoch_results[k] += v
                elif isinstance(v, torch.Tensor):
                    epoch_results[k] += v.item()  # expect: PP501
