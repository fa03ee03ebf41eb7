# ruff: noqa: UP031
"""Step defs returning a detached loss, silent: the loop sums the returned tensor on the device and formats
only the epoch's total after the loop, and a def returning its loss read as a Python number (`loss.item()`)
hands back no tensor at all."""

import torch
import torch.nn.functional as F

model = torch.nn.Conv2d(6, 1, 3).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)


def train(left, right, disparity):
    left, right, disparity = left.cuda(), right.cuda(), disparity.cuda()
    optimizer.zero_grad()
    loss = F.smooth_l1_loss(model(torch.cat([left, right], 1)).squeeze(1), disparity)
    loss.backward()
    optimizer.step()
    return loss.data


def main(loader, epochs):
    for epoch in range(epochs):
        total = 0
        for left, right, disparity in loader:
            loss = train(left, right, disparity)
            total += loss
        print("epoch %d total training loss = %.3f" % (epoch, total / len(loader)))
