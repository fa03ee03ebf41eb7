"""Training steps that return a host copy of their losses (`return mse.data.cpu().numpy(), ...`): every call
waits for the GPU to finish the step (hold-out 21: SVG's `train`, called by the script's loop, and PredRNN's
`Model.train`, whose loop is in another module)."""

import torch
import torch.nn as nn

device = torch.device("cuda")
net = nn.Linear(16, 16).to(device)
optimizer = torch.optim.Adam(net.parameters())


def train(x):
    net.zero_grad()
    mse = 0
    for i in range(1, x.size(0)):
        mse += ((net(x[i - 1]) - x[i]) ** 2).mean()
    mse.backward()
    optimizer.step()
    return mse.data.cpu().numpy() / x.size(0)  # expect: PP501


class Model:
    def __init__(self, network, lr):
        self.network = network.to(device)
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=lr)

    def train_batch(self, frames):
        frames = torch.as_tensor(frames).to(device)
        self.optimizer.zero_grad()
        loss = self.network(frames).pow(2).mean()
        loss.backward()
        self.optimizer.step()
        return loss.detach().cpu().numpy()  # expect: PP501


def fit(batches, epochs):
    for _ in range(epochs):
        total = 0.0
        for x in batches:
            total += train(x.to(device))
        print(total)


def rollout_step(model, optim, obs):
    # (the next observations go back to the host for the rollout; the finding points at the loss read)
    next_obs = model(obs.to(device))
    loss = next_obs.pow(2).mean()
    optim.zero_grad()
    loss.backward()
    optim.step()
    return next_obs.detach().cpu().numpy(), {
        "loss": loss.item(),  # expect: PP501
    }


def rollout(model, optim, obs, steps):
    losses = []
    for _ in range(steps):
        obs, info = rollout_step(model, optim, torch.as_tensor(obs))
        losses.append(info["loss"])
    return losses
