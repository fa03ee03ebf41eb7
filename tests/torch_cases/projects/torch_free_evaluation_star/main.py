import torch
from model import Recommender
from utils import *  # noqa: F403  (TiSASRec, CARE-GNN: the evaluation defs come in by a star import)

model = Recommender(6000, 1000, 32)
optimizer = torch.optim.Adam(model.parameters())
rows = torch.randint(0, 1000, (50000, 3))
for epoch in range(200):
    batch = sample_batch(rows, 128)  # noqa: F405
    loss = -model(batch[:, 0], batch[:, 1]).sigmoid().log().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 20 == 0:
        model.eval()
        print(evaluate(model, {}, 6000))  # noqa: F405
        model.train()
