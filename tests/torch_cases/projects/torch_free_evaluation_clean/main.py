import torch
from model import Recommender
from utils import evaluate, sample_batch, score_baseline

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
        model.eval()
        with torch.no_grad():
            print(evaluate(model, {}, 6000))
        model.train()
print(score_baseline(None, rows.numpy()))
