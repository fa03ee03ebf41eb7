"""Clean twins of pp506_positive_counter_fill.py (torch-fix102): the timestep made on the device with
`torch.full(..., device=)`, a tensor of each pass's own data (a reward the environment returns, a length read
from the batch) that must be copied whatever it holds, and a loop over a list, which counts nothing."""

import torch


@torch.no_grad()
def sample_flow(model, z, cond, sample_steps=50):
    b = z.size(0)
    dt = 1.0 / sample_steps
    for i in range(sample_steps, 0, -1):
        t = torch.full((b,), i / sample_steps, device=z.device)
        z = z - dt * model(z, t, cond)
    return z


def rollout(env, policy, state, num_steps, device):
    total = 0.0
    for _step in range(num_steps):
        action = policy(state)
        state, reward, done = env.step(action)
        reward = torch.tensor([reward] * 4).to(device)
        total = total + reward.sum()
    return total


@torch.no_grad()
def score(model, batches, device):
    for batch in batches:
        lengths = torch.tensor([len(batch)] * 2).to(device)
        model(batch, lengths)
