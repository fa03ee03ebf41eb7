"""Clean twin of pp501_positive_pipeline_step.py: the pipeline's step method reads its loss only on the steps
that log, and returns it detached for the trainer's loop to sum on the device."""

import torch

device = torch.device("cuda")


class LoggedPipeline:
    def __init__(self, net, batches, criterion, optim, every):
        self._net = net.to(device)
        self._batches = batches
        self._criterion = criterion
        self._opt = optim
        self._every = every
        self._step = 0

    def run_step(self):
        inputs, targets = next(self._batches)
        loss = self._criterion(self._net(inputs.to(device)), targets.to(device)).mean()
        loss.backward()
        self._opt.step()
        self._net.zero_grad()
        self._step += 1
        if self._step % self._every == 0:
            print(self._step, loss.item())
        return loss.detach()


class LoggedTrainer:
    def __init__(self, pipeline, steps):
        self._pipeline = pipeline
        self._steps = steps

    def train(self):
        total = 0.0
        for _ in range(self._steps):
            total += self._pipeline.run_step()
        return total
