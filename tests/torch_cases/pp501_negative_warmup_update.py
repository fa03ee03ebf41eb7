"""torch-fix104: updates behind a warm-up test that also takes a remainder (every N-th step), or behind a
test of a count the loop never raises: not every step."""

import torch
import torch.nn.functional as F


class Agent:
    def __init__(self, env, qf, buffer, device):
        self.env, self.qf, self.replay_buffer, self.device = env, qf, buffer, device
        self.steps, self.train_after, self.update_every, self.episodes = 0, 1000, 50, 0
        self.qf_optimizer = torch.optim.Adam(self.qf.parameters(), lr=1e-3)
        self.q_losses = []

    def train_model(self):
        obs, acts, target = self.replay_buffer.sample(64)
        qf_loss = F.mse_loss(self.qf(obs).gather(1, acts.long()).squeeze(1), target)
        self.qf_optimizer.zero_grad()
        qf_loss.backward()
        self.qf_optimizer.step()
        self.q_losses.append(qf_loss.item())

    def run(self, max_step):
        obs = self.env.reset()
        for _ in range(max_step):
            self.steps += 1
            action = self.qf(torch.Tensor(obs).to(self.device)).argmax()
            next_obs, reward, done, _ = self.env.step(int(action))
            self.replay_buffer.add(obs, action, reward, next_obs, done)
            if self.steps > self.train_after and self.steps % self.update_every == 0:
                self.train_model()
            if self.episodes > 10:
                self.train_model()
            obs = next_obs
