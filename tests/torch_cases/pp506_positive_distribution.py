"""SAC's policy (an RL collection's shape): `evaluate`, run by every update, draws the reparameterisation
noise from `Normal(0, 1)`, a distribution of Python numbers that samples on the CPU, then copies it over."""

import torch
import torch.nn as nn
from torch.distributions import Normal

device = torch.device("cuda")


class PolicyNetwork(nn.Module):
    def __init__(self, num_inputs, num_actions, hidden_size):
        super().__init__()
        self.linear = nn.Linear(num_inputs, hidden_size)
        self.mean_linear = nn.Linear(hidden_size, num_actions)
        self.log_std_linear = nn.Linear(hidden_size, num_actions)

    def forward(self, state):
        x = torch.relu(self.linear(state))
        return self.mean_linear(x), self.log_std_linear(x).clamp(-20, 2)

    def evaluate(self, state, epsilon=1e-6):
        mean, log_std = self.forward(state)
        std = log_std.exp()
        normal = Normal(0, 1)
        z = normal.sample(mean.shape)
        action = torch.tanh(mean + std * z.to(device))  # expect: PP506
        log_prob = Normal(mean, std).log_prob(mean + std * z) - torch.log(1.0 - action.pow(2) + epsilon)
        return action, log_prob.sum(dim=1, keepdim=True)


class SACTrainer:
    def __init__(self, policy_net, soft_q_net, policy_optimizer):
        self.policy_net = policy_net.to(device)
        self.soft_q_net = soft_q_net.to(device)
        self.policy_optimizer = policy_optimizer

    def update(self, state, alpha=0.2):
        new_action, log_prob = self.policy_net.evaluate(state)
        policy_loss = (alpha * log_prob - self.soft_q_net(state, new_action)).mean()
        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()
        return policy_loss.detach()
