"""Reads of tensors that stay on the host are no wait: an outer object's index the module never moves (an OGB
split index), a loss computed from tensors moved to a CPU device on purpose; the step's other reads are."""

import numpy as np
import torch


def train(data, dataset, model, optimizer, criterion, device):
    losses = []
    sg_nodes, sg_edges = data
    train_y = dataset.y[dataset.train_idx]
    for idx in np.random.permutation(len(sg_nodes)):
        x = dataset.x[sg_nodes[idx]].float().to(device)
        edges = sg_edges[idx].to(device)
        inter_idx = np.intersect1d(sg_nodes[idx], dataset.train_idx.tolist())
        optimizer.zero_grad()
        pred = model(x, edges)
        loss = criterion(pred[inter_idx], train_y[inter_idx].to(device))
        loss.backward()
        optimizer.step()
        losses.append(loss.item())  # expect: PP501
    return np.mean(losses)


def train_encoder(model, loader, optimizer, vis, speakers, utterances):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loss_device = torch.device("cpu")
    model = model.to(device)
    for step, batch in enumerate(loader):
        inputs = torch.from_numpy(batch.data).to(device)
        embeds = model(inputs)
        embeds_loss = embeds.view((speakers, utterances, -1)).to(loss_device)
        loss, eer = model.loss(embeds_loss)
        model.zero_grad()
        loss.backward()
        optimizer.step()
        vis.update(loss.item(), eer, step)
