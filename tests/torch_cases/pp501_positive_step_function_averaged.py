"""DomainBed's shape: an algorithm's `update` step (called every step by a train.py of another module)
that returns its losses read with `.item()`, in a module whose own loop updates the moving average of
each domain (`self.ema[d].update(...)`, an item of a list: another class's `update`)."""

import torch
import torch.nn.functional as F


class MovingAverage:
    def __init__(self, beta):
        self.beta = beta
        self.value = None

    def update(self, value):
        self.value = value if self.value is None else self.beta * self.value + (1 - self.beta) * value
        return self.value


class Fish(torch.nn.Module):
    def __init__(self, network, num_domains, lr):
        super().__init__()
        self.network = network
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=lr)
        self.ema = [MovingAverage(0.95) for _ in range(num_domains)]

    def update(self, minibatches):
        losses = []
        for domain, (x, y) in enumerate(minibatches):
            loss = F.cross_entropy(self.network(x), y)
            losses.append(self.ema[domain].update(loss))
        loss = torch.stack(losses).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item()}  # expect: PP501
