"""A validation pass after `model.eval()` inside the epoch loop, between two epochs' training steps
(torch-fix87): the loop that runs the model trains nothing itself, so it is reported at `high`; a loop whose
outputs feed a backward of the loop around it (a generator trained through eval-mode models) and a loop that
zeroes gradients itself stay `medium`."""

import torch


def fit(model, optimizer, criterion, train_loader, val_loader, device, epochs):
    history = []
    for _epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        model.eval()
        correct = 0
        for x, y in val_loader:
            x, y = x.to(device), y.to(device)
            out = model(x)  # expect: PP503 high
            correct += (out.argmax(1) == y).sum()
        history.append(correct)
    return history


def train_generator(generator, optimizer, criterion, models, weights, device, steps, batch):
    for _ in range(steps):
        labels = torch.randint(0, 10, (batch,), device=device)
        z = generator(labels)
        logits = 0
        for w, model in zip(weights, models, strict=True):
            model.eval()
            logits += model(z) * w  # expect: PP503
        optimizer.zero_grad()
        loss = criterion(logits, labels)
        loss.backward()
        optimizer.step()


def linear_eval(encoder, optimizer, criterion, train_loader, test_loader, epochs):
    for _epoch in range(epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            criterion(encoder(x.cuda()), y.cuda()).backward()
            optimizer.step()
        encoder.eval()
        scores = []
        for x, y in test_loader:
            encoder.zero_grad()
            out = encoder(x.cuda())  # expect: PP503
            scores.append(criterion(out, y.cuda()).detach())
    return scores
