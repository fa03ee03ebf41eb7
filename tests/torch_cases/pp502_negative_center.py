"""Accumulations that keep no graph (hold-out 13): WS-DAN's feature centres, updated from detached features
and a value read from the centres themselves, and a pre-0.4 loop that rebinds `loss = loss.data[0]`
(a number) before a running average of it. (That rebinding is itself a pre-0.4 read of the loss every
step: PP501 at medium since torch-fix52, `high` since torch-fix139.)"""

import torch
import torch.nn.functional as F


def train(net, data_loader, optimizer, feature_center, beta, device):
    net.train()
    for i, (X, y) in enumerate(data_loader):
        optimizer.zero_grad()
        X = X.to(device)
        y = y.to(device)
        y_pred, feature_matrix, attention_map = net(X)
        feature_center_batch = F.normalize(feature_center[y], dim=-1)
        feature_center[y] += beta * (feature_matrix.detach() - feature_center_batch)
        loss = F.cross_entropy(y_pred, y) + (feature_matrix - feature_center_batch).pow(2).sum() / X.size(0)
        loss.backward()
        optimizer.step()
        if i % 100 == 0:
            print(f"step {i}: loss {loss.item():.3f}")


def run_epoch(model, optimizer, train_ldr, avg_loss):
    for batch in train_ldr:
        optimizer.zero_grad()
        loss = model.loss(batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 200)
        loss = loss.data[0]  # expect: PP501
        optimizer.step()
        avg_loss = 0.99 * avg_loss + 0.01 * loss
    return avg_loss
