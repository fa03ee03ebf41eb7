"""torch-fix104: an off-policy agent that learns on every environment step once its replay buffer holds
a batch (`if self.steps > self.train_after: self.train_model()`, dongminlee94's DQN, SAC and TD3): the
warm-up test holds on every later step, so the update's `.item()` waits for the GPU on every step."""

import numpy as np
import torch
import torch.nn.functional as F


class Agent:
    def __init__(self, env, qf, qf_target, buffer, args, device):
        self.env, self.qf, self.qf_target, self.replay_buffer = env, qf, qf_target, buffer
        self.args, self.device = args, device
        self.steps, self.train_after, self.eval_mode = 0, 1000, False
        self.qf_optimizer = torch.optim.Adam(self.qf.parameters(), lr=1e-3)
        self.q_losses = []

    def select_action(self, obs):
        with torch.no_grad():
            return self.qf(obs).argmax().cpu().numpy()

    def train_model(self):
        obs1, obs2, acts, rews, done = self.replay_buffer.sample(64)
        q = self.qf(obs1).gather(1, acts.long()).squeeze(1)
        q_backup = rews + 0.99 * (1 - done) * self.qf_target(obs2).max(1)[0]
        qf_loss = F.mse_loss(q, q_backup.detach())
        self.qf_optimizer.zero_grad()
        qf_loss.backward()
        self.qf_optimizer.step()
        self.q_losses.append(qf_loss.item())  # expect: PP501

    def run(self, max_step):
        obs, done, step_number = self.env.reset(), False, 0
        while not (done or step_number == max_step):
            if self.eval_mode:
                action = self.select_action(torch.Tensor(obs).to(self.device))
                next_obs, reward, done, _ = self.env.step(action)
            else:
                self.steps += 1
                action = self.select_action(torch.Tensor(obs).to(self.device))
                next_obs, reward, done, _ = self.env.step(action)
                self.replay_buffer.add(obs, action, reward, next_obs, done)
                if self.steps > self.train_after:
                    self.train_model()
            step_number += 1
            obs = next_obs
        return np.mean(self.q_losses)
