"""A PPO trainer that moves its tensors with a dict of keyword arguments naming the device and reads
every minibatch's losses (MAPPO's r_mappo.py, hold-out 15)."""

import torch
import torch.nn as nn


class R_MAPPO:
    def __init__(self, args, policy, device=None):
        self.device = device
        self.tpdv = dict(dtype=torch.float32, device=device)
        self.policy = policy
        self.ppo_epoch = args.ppo_epoch
        self.num_mini_batch = args.num_mini_batch

    def ppo_update(self, sample):
        obs, actions, returns, old_log_probs, adv = sample
        returns = torch.from_numpy(returns).to(**self.tpdv)
        adv = torch.from_numpy(adv).to(**self.tpdv)
        values, log_probs, dist_entropy = self.policy.evaluate_actions(obs, actions)
        ratio = torch.exp(log_probs - torch.from_numpy(old_log_probs).to(**self.tpdv))
        policy_loss = -(ratio * adv).mean()
        value_loss = (returns - values).pow(2).mean()
        self.policy.optimizer.zero_grad()
        (policy_loss + value_loss - 0.01 * dist_entropy).backward()
        nn.utils.clip_grad_norm_(self.policy.parameters(), 10.0)
        self.policy.optimizer.step()
        return value_loss, policy_loss, dist_entropy

    def train(self, buffer):
        train_info = {"value_loss": 0, "policy_loss": 0, "dist_entropy": 0}
        for _ in range(self.ppo_epoch):
            data_generator = buffer.feed_forward_generator(self.num_mini_batch)
            for sample in data_generator:
                value_loss, policy_loss, dist_entropy = self.ppo_update(sample)
                train_info["value_loss"] += value_loss.item()  # expect: PP501
                train_info["policy_loss"] += policy_loss.item()
                train_info["dist_entropy"] += dist_entropy.item()
        return train_info
