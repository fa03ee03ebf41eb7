import torch.nn.functional as F
from torch import nn, optim


def train(model, loader, epochs=10):
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        total_loss = 0
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            total_loss += loss  # expect: PP502 high
        print(epoch, total_loss / len(loader))


def train_vae(model, loader, optimizer, losses):
    for batch, _ in loader:
        recon, mu, logvar = model(batch)
        nll = F.binary_cross_entropy(recon, batch, reduction="sum")
        kld = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum()
        optimizer.zero_grad()
        (nll + kld).backward()
        optimizer.step()
        losses.append(nll)  # expect: PP502


def train_rnn(rnn, sequences, optimizer, criterion):
    epoch_loss = 0
    for inputs, targets in sequences:
        optimizer.zero_grad()
        loss = criterion(rnn(inputs), targets)
        loss.backward()
        optimizer.step()
        epoch_loss = epoch_loss + loss  # expect: PP502
    return epoch_loss
