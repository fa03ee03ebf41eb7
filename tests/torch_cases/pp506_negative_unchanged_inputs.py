"""Near misses of the unchanged inputs (torch-fix48): an array the loop rebinds every pass, and labels
moved once with the features they were loaded with."""

import torch
import torch.nn.functional as F
from utils import load_citation, load_weights

device = torch.device("cuda")


def fit_one_epoch(model, optimizer, loader):
    for imgs, pngs, names in loader:
        cls_weights = load_weights(names)
        weights = torch.from_numpy(cls_weights)
        imgs, pngs, weights = imgs.cuda(), pngs.cuda(), weights.cuda()
        loss = F.cross_entropy(model(imgs), pngs, weight=weights)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


adj, features, labels, idx_train = load_citation("cora")
features = features.to(device)
adj = adj.to(device)
labels = labels.to(device)


def train(model, optimizer):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
