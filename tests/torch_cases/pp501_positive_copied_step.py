"""A trainer module that moves nothing itself (the batch getter it is given does): its step helper copies the
loss back with `.cpu()` before reading it, so the loss was on a device (medium: the device is out of sight)."""

import numpy as np
import torch


class Trainer:
    def __init__(self, model, optimizer, batch_size, get_batch, loss_fn):
        self.model = model
        self.optimizer = optimizer
        self.batch_size = batch_size
        self.get_batch = get_batch
        self.loss_fn = loss_fn

    def train_iteration(self, num_steps):
        train_losses = []
        self.model.train()
        for _ in range(num_steps):
            train_losses.append(self.train_step())
        return {"train_loss_mean": np.mean(train_losses)}

    def train_step(self):
        states, actions, returns = self.get_batch(self.batch_size)
        action_preds = self.model.forward(states, actions, returns)
        loss = self.loss_fn(action_preds, torch.clone(actions))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach().cpu().item()  # expect: PP501 medium
