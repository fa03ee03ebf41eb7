"""A trainer whose keyword dict names only a dtype: nothing says its tensors are on a GPU, and it reads
nothing back with `.cpu()` (the negative of pp501_positive_device_kwargs.py)."""

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, args, policy):
        self.tpdv = dict(dtype=torch.float32)
        self.policy = policy
        self.ppo_epoch = args.ppo_epoch

    def ppo_update(self, sample):
        obs, returns = sample
        returns = torch.from_numpy(returns).to(**self.tpdv)
        values = self.policy(obs)
        value_loss = (returns - values).pow(2).mean()
        self.policy.optimizer.zero_grad()
        value_loss.backward()
        nn.utils.clip_grad_norm_(self.policy.parameters(), 10.0)
        self.policy.optimizer.step()
        return value_loss

    def train(self, buffer):
        total = 0.0
        for _ in range(self.ppo_epoch):
            for sample in buffer.feed_forward_generator(4):
                value_loss = self.ppo_update(sample)
                total += value_loss.item()
        return total
