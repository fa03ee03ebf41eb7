"""The same host data moved on every step (torch-fix48): a NumPy array handed to the epoch's def and turned
into a tensor in every pass of its batch loop, and labels a full-batch script leaves on the CPU while it
moves the features loaded with them once."""

import torch
import torch.nn.functional as F
from utils import accuracy, load_citation

device = torch.device("cuda")


def fit_one_epoch(model, optimizer, loader, cls_weights, cuda):
    for imgs, pngs in loader:
        weights = torch.from_numpy(cls_weights)
        if cuda:
            imgs = imgs.cuda()
            pngs = pngs.cuda()
            weights = weights.cuda()  # expect: PP506 high
        loss = F.cross_entropy(model(imgs), pngs, weight=weights)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


adj, features, labels, idx_train = load_citation("cora")
features = features.to(device)
adj = adj.to(device)


def train(model, optimizer):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train].to(device))  # expect: PP506 medium
    loss_train.backward()
    optimizer.step()
    return accuracy(output[idx_train], labels[idx_train])
