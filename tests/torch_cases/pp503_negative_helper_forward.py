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
