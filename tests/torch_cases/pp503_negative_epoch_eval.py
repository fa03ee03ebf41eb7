"""The held-out set run once per epoch under no_grad, or a forward whose output trains on."""

import torch


def fit(model, loader, test_data, test_label, optimizer, epochs):
    best = 0.0
    for _epoch in range(epochs):
        model.train()
        for img, label in loader:
            loss = torch.nn.functional.cross_entropy(model(img.cuda()), label.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            logits = model(test_data)
        best = max(best, float((logits.argmax(1) == test_label).float().mean()))
    return best


def fit_then_tune(model, loader, probe, optimizer, epochs):
    for _epoch in range(epochs):
        for img, label in loader:
            loss = torch.nn.functional.cross_entropy(model(img.cuda()), label.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        tuned = torch.nn.functional.mse_loss(model(probe), probe.mean())
        tuned.backward()
        optimizer.step()
