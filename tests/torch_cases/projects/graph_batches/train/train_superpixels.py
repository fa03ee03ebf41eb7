"""One epoch of training and one of evaluation over batches of DGL graphs."""

import torch


def train_epoch(model, optimizer, device, data_loader, epoch):
    model.train()
    for batch_graphs, batch_labels, batch_snorm_n in data_loader:
        batch_x = batch_graphs.ndata["feat"].to(device)
        batch_e = batch_graphs.edata["feat"].to(device)
        batch_labels = batch_labels.to(device)
        batch_snorm_n = batch_snorm_n.to(device)
        optimizer.zero_grad()
        batch_scores = model.forward(batch_graphs, batch_x, batch_e, batch_snorm_n)
        loss = model.loss(batch_scores, batch_labels)
        loss.backward()
        optimizer.step()
    return optimizer


def evaluate_network(model, device, data_loader, epoch):
    model.eval()
    correct = 0
    with torch.no_grad():
        for batch_graphs, batch_labels, batch_snorm_n in data_loader:
            batch_graphs = batch_graphs.to(device)
            batch_x = batch_graphs.ndata["feat"]
            batch_scores = model.forward(batch_graphs, batch_x, None, batch_snorm_n.to(device))
            correct += (batch_scores.argmax(1) == batch_labels.to(device)).sum()
    return correct
