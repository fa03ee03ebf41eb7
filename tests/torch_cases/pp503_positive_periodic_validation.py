"""A full-batch graph model validated every few epochs, after the step, under an `if` of the epoch loop:
the validation forward builds a graph nobody uses (torch-fix97)."""

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
        embeddings = model.encode(data["features"], data["adj"])  # expect: PP503
        val_metrics = model.compute_metrics(embeddings, data, "val")
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
            out = net(graph.x, graph.adj)  # expect: PP503
            print((out[graph.val_mask].argmax(1) == graph.y[graph.val_mask]).float().mean().item())
