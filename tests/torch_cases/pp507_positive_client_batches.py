# one client's training: the loop hands out batches of one loader (named for its client) and the optimizer
# of the one shared model is built again for every batch, so its momentum starts from zero on every step
# (review 28 item 6: the level follows what the loop iterates, not the names)
import torch
from torch import nn


def train_client(model, client_loader, device):
    for x, y in client_loader:
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)  # expect: PP507 medium
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
