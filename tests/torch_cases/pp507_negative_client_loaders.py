# federated rounds (the shape torch-fix138 read wrong in all first reads): one optimizer per client, each
# client's loader or model handed out by the loop; a fresh optimizer per client is on purpose, so it stays
# `low` whatever the list of loaders is named (review 28 item 6)
import torch
from torch import nn


def fedsgd_round(model, client_loaders, device):
    for client_loader in client_loaders:
        opt = torch.optim.SGD(model.parameters(), lr=0.1)  # expect: PP507 low
        x, y = next(iter(client_loader))  # expect: PP507
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()


def local_updates(client_models, client_batches, device):
    for local, client_batch in zip(client_models, client_batches, strict=True):
        opt = torch.optim.SGD(local.parameters(), lr=0.1)  # expect: PP507 low
        x, y = client_batch
        loss = nn.functional.mse_loss(local(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
