"""The evaluation reads `.item()`, so it runs on PyTorch 0.4 or later, where `volatile=` does nothing."""

import torch
from data_loader import get_batch
from model import Tagger

data = torch.load("data.pt")
model = Tagger(len(data["dict"])).cuda()
optimizer = torch.optim.Adam(model.parameters())
criterion = torch.nn.CrossEntropyLoss()


def evaluate(source):
    model.eval()
    total = 0.0
    for i in range(0, len(source["src"]), 64):
        src, label = get_batch(source, i, 64, evaluation=True)
        pred = model(src)  # expect: PP503
        total += criterion(pred, label).item()  # expect: PP501
    return total


def train(source):
    model.train()
    for i in range(0, len(source["src"]), 64):
        src, label = get_batch(source, i, 64)
        optimizer.zero_grad()
        criterion(model(src), label).backward()
        optimizer.step()


for _ in range(10):
    train(data["train"])
    print(evaluate(data["valid"]))
