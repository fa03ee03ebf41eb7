"""PP501 (torch-fix129) negatives for a handed device: a loop whose factory names the CPU itself
(`device="cpu"`), and one whose def is handed a device it never gives a factory (a module that moves
nothing: its loop is left to the project pass)."""

import torch


def training_loop(epochs, data, opt, train_fn):
    for _epoch in range(epochs):
        for triples, labels in data:
            opt.zero_grad()
            _sub = torch.tensor(triples[:, 0], dtype=torch.long, device="cpu")
            loss = train_fn.loss(train_fn(_sub), torch.tensor(labels, dtype=torch.float))
            print(loss.item())
            loss.backward()
            opt.step()


def fit(epochs, data, opt, model, criterion, device):
    for _epoch in range(epochs):
        for x, y in data:
            opt.zero_grad()
            loss = criterion(model(torch.tensor(x)), torch.tensor(y))
            print(loss.item())
            loss.backward()
            opt.step()
