"""review23 bug 4: the script defines its own no_grad `evaluate` and never imports the torch-free
module's: nothing hands `utils.evaluate` a model, so it gets no PP503."""

import torch
from model import Recommender
from utils import sample_batch


@torch.no_grad()
def evaluate(model, rows):
    return model(rows[:, 0], rows[:, 1]).mean().item()


model = Recommender(6000, 1000, 32)
optimizer = torch.optim.Adam(model.parameters())
rows = torch.randint(0, 1000, (50000, 3))
for epoch in range(200):
    batch = sample_batch(rows, 128)
    loss = -model(batch[:, 0], batch[:, 1]).sigmoid().log().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 20 == 0:
        print(evaluate(model, rows))
