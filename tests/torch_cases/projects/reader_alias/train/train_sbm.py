import torch
from train.metrics import accuracy_SBM as accuracy


def train_epoch(model, optimizer, device, data_loader):
    model.train()
    epoch_loss = torch.zeros((), device=device)
    epoch_train_acc = 0
    for batch_graphs, batch_labels in data_loader:
        batch_graphs = batch_graphs.to(device)
        batch_labels = batch_labels.to(device)
        optimizer.zero_grad()
        batch_scores = model(batch_graphs)
        loss = model.loss(batch_scores, batch_labels)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.detach()
        epoch_train_acc += accuracy(batch_scores, batch_labels)  # expect: PP501
    return epoch_loss, epoch_train_acc
