"""A library module's `__main__` block that checks its own class on random tensors: a self-test, medium."""

import torch
import torch.nn as nn


class SplitLoss(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, hiddens, targets):
        return nn.functional.cross_entropy(self.proj(hiddens), targets)


if __name__ == "__main__":
    if torch.cuda.is_available():
        torch.cuda.manual_seed(42)
    V, H, N = 8, 10, 100
    embed = nn.Embedding(V, H)
    crit = SplitLoss(H, V)
    optimizer = torch.optim.SGD(list(embed.parameters()) + list(crit.parameters()), lr=1)
    for _ in range(N):
        prev = (torch.rand(N) * 0.999 * V).long()
        target = (torch.rand(N) * 0.999 * V).long()
        c = crit(embed(prev), target)
        print("loss", c.item())  # expect: PP501 medium
        optimizer.zero_grad()
        c.backward()
        optimizer.step()
