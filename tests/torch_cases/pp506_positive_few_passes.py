"""A loop of a literal handful of passes takes the level of its def (torch-fix50): a sample grid drawn by a
def the training loop calls every 1,000 steps is `low`; the same copy in a def an evaluation loop calls
on every batch (a loop that runs the model each pass) is `medium`."""

import torch

device = torch.device("cuda")
generator = torch.load("generator.pt").to(device)
model = torch.load("scorer.pt").to(device)
optimizer = torch.optim.Adam(generator.parameters())
loader = torch.utils.data.DataLoader(torch.load("train.pt"), batch_size=64, num_workers=4, pin_memory=True)


def sample_grid(n_noise=100):
    images = []
    for label in range(10):
        z = torch.randn(1, n_noise).to(device)  # expect: PP506 low
        c = torch.zeros(1, 10).to(device)  # expect: PP506 low
        c[0, label] = 1
        images.append(generator(z, c))
    return images


def recall_at(logits, labels):
    order = torch.sort(logits, 1, descending=True)[1]
    scores = [0] * 3
    for i, r in enumerate([1, 5, 10]):
        hits = torch.zeros(*labels.size()).to(device)  # expect: PP506
        hits.scatter_(1, order[:, :r], 1)
        scores[i] = ((hits * labels).sum(1) >= 1).float().sum()
    return scores


for step, (x, y) in enumerate(loader):
    x, y = x.to(device), y.to(device)
    loss = generator.loss(x, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 1000 == 0:
        sample_grid()

with torch.no_grad():
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        recall_at(model(x), y)
