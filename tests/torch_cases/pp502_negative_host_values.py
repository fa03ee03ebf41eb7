"""Sums of values already read to the host: rebound on the line before, or returned as `.item()` by a
method (the Humpback-whale and Rainbow shapes)."""

import torch


class DQNAgent:
    def __init__(self, dqn, optimizer, memory, env, batch_size):
        self.dqn = dqn
        self.optimizer = optimizer
        self.memory = memory
        self.env = env
        self.batch_size = batch_size

    def update_model(self) -> torch.Tensor:
        samples = self.memory.sample_batch()
        loss = self.dqn.loss(samples)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()  # expect: PP501

    def train(self, num_frames):
        losses = []
        for _ in range(num_frames):
            self.env.step(self.dqn.act())
            if len(self.memory) >= self.batch_size:
                loss = self.update_model()
                losses.append(loss)
        return losses


def train_epoch(model, loader, optimizer):
    train_loss_sum = 0
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        batch_loss = torch.nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        batch_loss.backward()
        optimizer.step()
        # (the per-step read itself is PP501's, reported since torch-fix16 follows `x = x.cpu()` rebinding)
        batch_loss = batch_loss.data.cpu().numpy()  # expect: PP501
        train_loss_sum += batch_loss
    return train_loss_sum
