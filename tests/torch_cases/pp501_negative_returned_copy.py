"""Clean twins of pp501_positive_returned_copy.py: a training step that returns its loss detached on the
device (read by the caller every N steps), and a prediction def without backward that returns a host copy
of its outputs once per call (evaluation, not a training step), and a saliency helper that runs a backward
but no optimizer step."""

import torch
import torch.nn as nn

device = torch.device("cuda")
net = nn.Linear(16, 16).to(device)
optimizer = torch.optim.Adam(net.parameters())


def train(x):
    net.zero_grad()
    loss = ((net(x[:-1]) - x[1:]) ** 2).mean()
    loss.backward()
    optimizer.step()
    return loss.detach()


def predict(x):
    with torch.no_grad():
        out = net(x.to(device))
    return out.cpu().numpy()


def fit(batches, epochs, every):
    for _ in range(epochs):
        total = torch.zeros((), device=device)
        for step, x in enumerate(batches):
            total += train(x.to(device))
            if step % every == 0:
                print(step, total.item() / (step + 1))


class Agent:
    """A policy's saliency helper for rendering: it backpropagates the value to the observation but steps no
    optimizer, and returns the action and the map for the environment and the video (train-procgen's
    `predict_w_value_saliency`, called by render scripts)."""

    def __init__(self, policy):
        self.policy = policy.to(device)

    def predict_w_value_saliency(self, obs):
        obs = torch.as_tensor(obs).to(device)
        obs.requires_grad_()
        dist, value = self.policy(obs)
        value.sum().backward()
        act = dist.sample()
        return act.detach().cpu().numpy(), obs.grad.detach().cpu().numpy()
