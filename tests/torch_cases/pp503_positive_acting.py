import copy

import numpy as np
import torch
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class DDPG:
    def __init__(self, actor, critic):
        self.actor = actor.to(device)
        self.actor_target = copy.deepcopy(self.actor)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=1e-4)
        self.critic = critic.to(device)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters())

    def select_action(self, state):
        state = torch.FloatTensor(state.reshape(1, -1)).to(device)
        return self.actor(state).cpu().data.numpy().flatten()  # expect: PP503

    def train(self, replay_buffer, batch_size=100):
        state, action, next_state, reward, not_done = replay_buffer.sample(batch_size)
        current_q = self.critic(state, action)
        critic_loss = F.mse_loss(current_q, reward)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()


class DQNAgent:
    def __init__(self, q_network, n_actions):
        self.q_network = q_network
        self.n_actions = n_actions
        self.optimizer = torch.optim.Adam(q_network.parameters())

    def act(self, state, epsilon):
        if np.random.rand() < epsilon:
            return np.random.randint(self.n_actions)
        state = torch.from_numpy(state).float().unsqueeze(0).to(device)
        return self.q_network(state).argmax(dim=1).item()  # expect: PP503

    def learn(self, states, actions, targets):
        q = self.q_network(states).gather(1, actions)
        loss = F.smooth_l1_loss(q, targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
