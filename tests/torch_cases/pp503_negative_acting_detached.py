import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class Actor(nn.Module):
    def __init__(self, state_size, action_size):
        super().__init__()
        self.fc = nn.Linear(state_size, action_size)

    def get_action(self, state):
        return torch.tanh(self.fc(state))


class Agent:
    """The forward's output is kept with its graph as well as detached: the rollout backpropagates it."""

    def __init__(self, state_size, action_size):
        self.actor = Actor(state_size, action_size).to(device)
        self.optimizer = torch.optim.Adam(self.actor.parameters())
        self.kept = []

    def act(self, state):
        state = torch.from_numpy(state).float().to(device)
        action = self.actor.get_action(state)
        self.kept.append(action)
        return action.detach().cpu().numpy()

    def select_action(self, state):
        state = torch.from_numpy(state).float().to(device)
        out = self.actor.forward(state)
        return out, out.detach()

    def learn(self, returns):
        loss = -(torch.stack(self.kept) * returns).sum()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class Guarded:
    def __init__(self, actor):
        self.actor = actor

    @torch.no_grad()
    def act(self, state):
        return self.actor.get_action(torch.as_tensor(state, device=device)).detach()

    def update(self, loss):
        F.relu(loss).backward()


class CartPoleDQN:
    """A CPU-only agent: the state never leaves the host, the tiny graph sits next to the environment's work."""

    def __init__(self, eval_net):
        self.eval_net = eval_net
        self.optimizer = torch.optim.Adam(self.eval_net.parameters())

    def choose_action(self, state):
        state = torch.unsqueeze(torch.FloatTensor(state), 0)
        action_value = self.eval_net.forward(state)
        return torch.max(action_value, 1)[1].data.numpy()[0]

    def learn(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class A2CAgent:
    """One output of the unpacked forward leaves with its graph: the update backpropagates the value."""

    def __init__(self, model):
        self.model = model.to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def get_action(self, state):
        state = torch.Tensor(state).to(device)
        policy, value = self.model(state)
        action = F.softmax(policy, dim=-1).data.cpu().numpy().argmax(-1)
        return action, value

    def update(self, values, returns):
        loss = F.mse_loss(torch.stack(values), returns)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
