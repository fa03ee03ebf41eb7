"""Evaluation loops whose forward helper turns gradients off itself, or takes the optimizer step."""

import torch


class Runner:
    def __init__(self, model, optimizer, device):
        self.model = model
        self.optimizer = optimizer
        self.device = device

    @torch.no_grad()
    def _predict_batch(self, x):
        return self.model(x.to(self.device))

    def _scores(self, x):
        with torch.no_grad():
            logits = self.model(x.to(self.device))
        return logits.softmax(-1)

    def _fit_batch(self, x, y):
        loss = torch.nn.functional.cross_entropy(self.model(x.to(self.device)), y.to(self.device))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def evaluate(self, loader):
        self.model.eval()
        preds = [self._predict_batch(x) for x, _ in loader]
        for x, _ in loader:
            preds.append(self._scores(x))
        return torch.cat(preds)

    def adapt_then_test(self, loader):
        self.model.eval()
        for x, y in loader:
            self._fit_batch(x, y)


class Agent:
    """An agent's test episodes: the helper runs the actor on the environment's state, not on batches."""

    def __init__(self, actor, env, device):
        self.actor = actor
        self.env = env
        self.device = device

    def select_action(self, state):
        return self.actor(torch.as_tensor(state, device=self.device)).argmax().item()

    def test(self, episodes):
        self.actor.eval()
        for _ in range(episodes):
            state, done = self.env.reset(), False
            while not done:
                state, _, done, _ = self.env.step(self.select_action(state))
