import numpy as np
import torch
from torch.distributions import Categorical


class TD3:
    def __init__(self, actor):
        self.actor = actor
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters())

    @torch.no_grad()
    def select_action(self, state):
        state = torch.FloatTensor(state.reshape(1, -1))
        return self.actor(state).cpu().data.numpy().flatten()

    def train(self, loss):
        self.actor_optimizer.zero_grad()
        loss.backward()
        self.actor_optimizer.step()


class Reinforce:
    def __init__(self, policy):
        self.policy = policy
        self.saved_log_probs = []

    def select_action(self, state):
        state = torch.from_numpy(state).float().unsqueeze(0)
        probs = self.policy(state)
        m = Categorical(probs)
        action = m.sample()
        self.saved_log_probs.append(m.log_prob(action))
        return action.item()

    def finish_episode(self, returns):
        loss = torch.cat([-lp * r for lp, r in zip(self.saved_log_probs, returns, strict=False)]).sum()
        loss.backward()


class TutorialDQN:
    def __init__(self, policy_net, n_actions):
        self.policy_net = policy_net
        self.n_actions = n_actions

    def select_action(self, state, eps):
        if np.random.rand() > eps:
            return self.policy_net(state).max(1)[1].view(1, 1)
        return torch.tensor([[np.random.randint(self.n_actions)]], dtype=torch.long)

    def optimize(self, loss):
        loss.backward()


class Guarded:
    def __init__(self, actor):
        self.actor = actor

    def select_action(self, state):
        with torch.no_grad():
            action = self.actor(torch.FloatTensor(state)).cpu().numpy()
        return action

    def update(self, loss):
        loss.backward()
