"""PP501 (review-mend12, review25 item 1): loops named for epochs that draw a fresh batch every pass
through a call whose name holds a draw word, whole (`sampler.sample(n)`, `nextSamples()`): each pass is a
step on a new draw, not an epoch over the whole data set, so the read is per step."""

import torch

device = torch.device("cuda")


def fit(model, optimizer, criterion, sampler, epochs):
    for epoch in range(epochs):
        inputs, targets = sampler.sample(256)
        inputs, targets = inputs.to(device), targets.to(device)
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())  # expect: PP501


def fit_stream(model, optimizer, criterion, stream, epochs):
    for epoch in range(epochs):
        inputs, targets = stream.nextSamples()
        loss = criterion(model(inputs.to(device)), targets.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())  # expect: PP501
