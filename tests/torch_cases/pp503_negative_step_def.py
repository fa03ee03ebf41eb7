import torch
import torch.nn.functional as F


def train(model, optimizer, features, adj, labels, idx_train, idx_val):
    model.train()
    optimizer.zero_grad()
    loss_train = F.nll_loss(model(features, adj)[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()

    model.eval()
    with torch.no_grad():
        output = model(features, adj)
    return F.nll_loss(output[idx_val], labels[idx_val])


def train_two_phases(model, optimizer, x, y, x_unlabeled):
    optimizer.zero_grad()
    F.cross_entropy(model(x), y).backward()
    optimizer.step()
    model.eval()
    pseudo = model(x_unlabeled).argmax(1)
    model.train()
    optimizer.zero_grad()
    F.cross_entropy(model(x_unlabeled), pseudo).backward()  # the eval forward's labels feed a step
    optimizer.step()
