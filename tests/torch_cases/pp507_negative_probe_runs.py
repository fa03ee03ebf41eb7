"""A linear probe trained afresh in each of many runs: the loop builds a new classifier from a class of
another module, moves it and builds its optimizer; per-run set-up, not a model moved again (torch-fix50)."""

import torch
import torch.nn as nn
from models import LogReg

embeddings = torch.load("embeddings.pt").cuda()
labels = torch.load("labels.pt").cuda()
xent = nn.CrossEntropyLoss()

accs = []
for _ in range(50):
    probe = LogReg(embeddings.size(1), 7)
    opt = torch.optim.Adam(probe.parameters(), lr=0.01)
    probe.cuda()
    for _ in range(100):
        opt.zero_grad()
        loss = xent(probe(embeddings), labels)
        loss.backward()
        opt.step()
    accs.append((probe(embeddings).argmax(1) == labels).float().mean())
