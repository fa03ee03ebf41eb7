import torch
from train.metrics import accuracy_SBM as accuracy


def train_epoch(model, optimizer, device, data_loader, log_every):
    model.train()
    epoch_loss = torch.zeros((), device=device)
    for step, (batch_graphs, batch_labels) in enumerate(data_loader):
        batch_graphs = batch_graphs.to(device)
        batch_labels = batch_labels.to(device)
        optimizer.zero_grad()
        batch_scores = model(batch_graphs)
        loss = model.loss(batch_scores, batch_labels)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.detach()
        if step % log_every == 0:
            print(step, accuracy(batch_scores, batch_labels))
    return epoch_loss / (step + 1)
