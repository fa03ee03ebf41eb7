"""A step that adds noise made on the host to every batch whose loss is finite: the body of `if not
torch.isnan(loss).any():` is the normal path, taken on every step, not a fallback (review 28 items 1 and 9)."""

import torch

device = torch.device("cuda")
model = torch.nn.Linear(8, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def train(loader):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        if not torch.isnan(loss).any():  # expect: PP501
            noise = torch.randn(8).to(device)  # expect: PP506 high
            x = x + noise
        opt.zero_grad()
        loss.backward()
        opt.step()
