"""A gated-GCN notebook turned script: its collate merges the samples into one DGLGraph, which the
loader's pin_memory=True would leave pageable (torch pins tensors and objects with a `pin_memory()`
method; a DGLGraph has only `pin_memory_()`). Nothing to report."""

import dgl
import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")


def collate(samples):
    graphs, labels = map(list, zip(*samples, strict=True))
    return dgl.batch(graphs), torch.tensor(labels)


def train(model, trainset, epochs):
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(trainset, batch_size=50, shuffle=True, collate_fn=collate, num_workers=4)
    for _ in range(epochs):
        for batch_graphs, batch_labels in loader:
            batch_graphs = batch_graphs.to(device)
            batch_x = batch_graphs.ndata["feat"]
            batch_e = batch_graphs.edata["feat"]
            batch_scores = model(batch_graphs, batch_x, batch_e)
            loss = model.loss(batch_scores, batch_labels.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
