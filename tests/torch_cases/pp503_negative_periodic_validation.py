"""Twins of pp503_positive_periodic_validation.py that stay silent: the periodic validation under no_grad,
a branch that trains again after its forward, and one whose forward is only a setter or a state copy."""

import torch

model = torch.load("hgcn.pt")
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
data = torch.load("cora.pt")
for epoch in range(2000):
    model.train()
    optimizer.zero_grad()
    embeddings = model.encode(data["features"], data["adj"])
    metrics = model.compute_metrics(embeddings, data, "train")
    metrics["loss"].backward()
    optimizer.step()
    if (epoch + 1) % 5 == 0:
        model.eval()
        with torch.no_grad():
            embeddings = model.encode(data["features"], data["adj"])
        val_metrics = model.compute_metrics(embeddings.detach(), data, "val")
        print(epoch, val_metrics["acc"])


def fit(net, opt, graph, epochs, eval_freq):
    for epoch in range(epochs):
        net.train()
        opt.zero_grad()
        loss = net.loss(graph)
        loss.backward()
        opt.step()
        if epoch % eval_freq == 0:
            net.eval()
            out = net(graph.x, graph.adj)
            opt.zero_grad()
            net.train()
            out.sum().backward()
            opt.step()


def fit_and_keep(net, opt, graph, epochs, snapshots):
    for epoch in range(epochs):
        net.train()
        opt.zero_grad()
        loss = net.loss(graph)
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            net.eval()
            net.set_epoch(epoch)
            snapshots.append(net.state_dict())
