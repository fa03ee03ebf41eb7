"""PP501 (torch-fix127), silent: a read under a test of the counter against a period (`if iteration > 100:`
is not the first step only) or under a test of another name, and a full-batch epoch loop (no draw: one
step per epoch over the whole graph), whose epoch read is the epoch's log."""

import torch

device = torch.device("cuda")


def train(model, optimizer, criterion, train_loader, losses, warm):
    for iteration, batch in enumerate(train_loader):
        image, alpha = batch[0].cuda(), batch[1].cuda()
        loss = criterion(model(image), alpha)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if iteration > 100:
            losses.append(loss.item())
        if warm != 0:
            losses.append(loss.item())


def train_gcn(model, optimizer, features, adj, labels, epochs, log):
    for epoch in range(epochs):
        optimizer.zero_grad()
        out = model(features, adj)
        loss = torch.nn.functional.cross_entropy(out, labels)
        loss.backward()
        optimizer.step()
        log.append((epoch, loss.item()))
