"""A trainer whose loop runs the training step of a pipeline object of another class of the module
(`log = self._pipeline.train_step()`): the step method backpropagates and steps, and its `loss.item()` runs on
every step of the trainer's loop (hold-out 21: fast_abs_rl's BasicPipeline and BasicTrainer)."""

import torch

device = torch.device("cuda")


class BasicPipeline:
    def __init__(self, net, batches, criterion, optim):
        self._net = net.to(device)
        self._batches = batches
        self._criterion = criterion
        self._opt = optim

    def train_step(self):
        self._net.train()
        inputs, targets = next(self._batches)
        loss = self._criterion(self._net(inputs.to(device)), targets.to(device)).mean()
        loss.backward()
        log_dict = {"loss": loss.item()}  # expect: PP501
        self._opt.step()
        self._net.zero_grad()
        return log_dict


class BasicTrainer:
    def __init__(self, pipeline, ckpt_freq):
        self._pipeline = pipeline
        self._ckpt_freq = ckpt_freq
        self._step = 0

    def log(self, log_dict):
        print(self._step, log_dict)

    def train(self):
        while True:
            log_dict = self._pipeline.train_step()
            self._step += 1
            self.log(log_dict)
            if self._step % self._ckpt_freq == 0:
                break
