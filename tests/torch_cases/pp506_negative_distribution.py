"""Samples that are not drawn on the CPU for every step: a distribution of the network's own (device)
outputs, and noise drawn only when an update asks for exploration."""

import torch
import torch.nn as nn
from torch.distributions import Normal

device = torch.device("cuda")


class PolicyNetwork(nn.Module):
    def __init__(self, num_inputs, num_actions):
        super().__init__()
        self.mean_linear = nn.Linear(num_inputs, num_actions)
        self.log_std = nn.Parameter(torch.zeros(num_actions))

    def evaluate(self, state):
        mean = self.mean_linear(state)
        dist = Normal(mean, self.log_std.exp())
        action = dist.rsample().to(device)
        return action, dist.log_prob(action).sum(-1)

    def explore(self, action):
        return action + Normal(0, 0.1).sample(action.shape).to(device)


class Trainer:
    def __init__(self, policy_net, optimizer, noisy=False):
        self.policy_net = policy_net.to(device)
        self.optimizer = optimizer
        self.noisy = noisy

    def update(self, state):
        action, log_prob = self.policy_net.evaluate(state)
        if self.noisy:
            action = self.policy_net.explore(action)
        loss = (log_prob - action.pow(2).sum(-1)).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
