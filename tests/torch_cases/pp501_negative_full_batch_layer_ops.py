"""PP501 (review-mend12, review25 item 1), silent: full-batch epoch loops that call layer ops named like a
draw. `F.upsample` (the old alias of `F.interpolate`), `F.grid_sample` and `F.batch_norm` transform the
tensors they are given and draw no batch, so each loop still steps once per epoch on the whole graph or
image, and its reads are the epoch's log (`full_batch_epochs`)."""

import torch.nn.functional as F


def fit(model, features, adj, labels, idx_train, optimizer):
    model = model.cuda()
    features, adj, labels = features.cuda(), adj.cuda(), labels.cuda()
    for epoch in range(200):
        model.train()
        optimizer.zero_grad()
        hidden = F.upsample(features[None], scale_factor=1.0)[0]
        output = model(hidden, adj)
        loss_train = F.nll_loss(output[idx_train], labels[idx_train])
        loss_train.backward()
        optimizer.step()
        print("epoch", epoch, "loss", loss_train.item())


def fit_warp(net, image, grid, optimizer, epochs):
    net, image, grid = net.cuda(), image.cuda(), grid.cuda()
    history = []
    for epoch in range(epochs):
        optimizer.zero_grad()
        warped = F.grid_sample(net(image), grid, align_corners=False)
        loss = F.mse_loss(warped, image)
        loss.backward()
        optimizer.step()
        history.append((epoch, loss.item()))
    return history


def fit_functional(weight, features, adj, labels, mean, var, optimizer):
    weight, features, adj, labels = weight.cuda(), features.cuda(), adj.cuda(), labels.cuda()
    for epoch in range(300):
        optimizer.zero_grad()
        hidden = F.batch_norm(adj @ features @ weight, mean, var, training=True)
        loss = F.cross_entropy(hidden, labels)
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
