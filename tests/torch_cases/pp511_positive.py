import torch


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_graph=True)  # expect: PP511 medium
        optimizer.step()


def train_rnn(rnn, batches, optimizer, hidden):
    for inputs, targets in batches:
        output, hidden = rnn(inputs, hidden)
        loss = torch.nn.functional.nll_loss(output, targets)
        torch.autograd.backward(loss, retain_graph=True)  # expect: PP511
        optimizer.step()
