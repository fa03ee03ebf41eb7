"""A DQN notebook's agent (hold-out 13's DeepRL-Tutorials): `update` runs backward and an optimizer step and
logs `loss.item()`, called once per frame by the environment loop, a loop that steps nothing of its own
sight (`update` is no method the loop finder follows). The step def is judged as such: high, the module
places the networks on the GPU."""

import torch


class Model:
    def __init__(self, network, config):
        self.device = config.device
        self.model = network.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.LR)
        self.memory = []
        self.losses = []

    def compute_loss(self, batch):
        states, targets = batch
        return ((self.model(states) - targets) ** 2).mean()

    def update(self, s, a, r, s_, frame=0):
        self.memory.append((s, a, r, s_))
        batch = self.prep_minibatch()
        loss = self.compute_loss(batch)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.losses.append(loss.item())  # expect: PP501

    def prep_minibatch(self):
        states = torch.tensor([m[0] for m in self.memory[-32:]], device=self.device, dtype=torch.float)
        targets = torch.tensor([m[2] for m in self.memory[-32:]], device=self.device, dtype=torch.float)
        return states, targets


def run(env, model, policy, frames):
    observation = env.reset()
    for frame_idx in range(1, frames + 1):
        action = policy(observation)
        prev_observation = observation
        observation, reward, done, _ = env.step(action)
        model.update(prev_observation, action, reward, observation, frame_idx)
        if done:
            observation = env.reset()
