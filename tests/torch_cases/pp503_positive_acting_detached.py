import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class Actor(nn.Module):
    def __init__(self, state_size, action_size):
        super().__init__()
        self.fc = nn.Linear(state_size, 2 * action_size)

    def get_action(self, state):
        mu, log_std = self.fc(state).chunk(2, dim=-1)
        e = Normal(0, 1).sample(mu.shape).to(device)
        return torch.tanh(mu + e * log_std.exp()).cpu()


class Agent:
    """Soft actor-critic: the acting head is a method of the actor network, its output detached."""

    def __init__(self, state_size, action_size, critic):
        self.actor_local = Actor(state_size, action_size).to(device)
        self.actor_optimizer = torch.optim.Adam(self.actor_local.parameters(), lr=3e-4)
        self.critic = critic

    def act(self, state):
        state = torch.from_numpy(state).float().to(device)
        action = self.actor_local.get_action(state).detach()  # expect: PP503
        return action

    def learn(self, states):
        actions = self.actor_local.get_action(states)
        actor_loss = -self.critic(states, actions).mean()
        self.actor_optimizer.zero_grad()
        actor_loss.backward()
        self.actor_optimizer.step()


class DDPGAgent:
    """DDPG: the forward is bound to a name, which is then read back to the host."""

    def __init__(self, actor, critic):
        self.actor = actor.to(device)
        self.critic = critic.to(device)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters())

    def get_action(self, state):
        state = torch.FloatTensor(state).unsqueeze(0).to(device)
        action = self.actor.forward(state)  # expect: PP503
        action = action.squeeze(0).cpu().detach().numpy()
        return action

    def update(self, states, targets):
        loss = F.mse_loss(self.critic(states, self.actor(states)), targets)
        self.actor_optimizer.zero_grad()
        loss.backward()
        self.actor_optimizer.step()


class RNDAgent:
    """Actor-critic rollout: the forward's outputs are unpacked and each read only without its graph."""

    def __init__(self, model, learning_rate=1e-4):
        self.model = model.to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=learning_rate)

    def get_action(self, state):
        state = torch.Tensor(state).to(device)
        policy, value = self.model(state)  # expect: PP503
        action_prob = F.softmax(policy, dim=-1).data.cpu().numpy()
        action = (action_prob.cumsum(axis=1) > np.random.rand(len(action_prob), 1)).argmax(axis=1)
        return action, value.data.cpu().numpy().squeeze(), policy.detach()

    def act(self, state):
        state = torch.Tensor(state).to(device)
        policy, _ = self.model(state)  # expect: PP503
        return F.softmax(policy, dim=-1).data.cpu().numpy()

    def train_model(self, states, targets):
        policy, value = self.model(states)
        loss = F.mse_loss(value.squeeze(-1), targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


def run(agent, env, episodes):
    for _ in range(episodes):
        state, done = env.reset(), False
        while not done:
            state, reward, done, _ = env.step(np.asarray(agent.act(state)))
