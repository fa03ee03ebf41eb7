# ruff: noqa: UP031
"""A stereo script's step def returns its loss detached (`return loss.data`), and the epoch's batch loop
formats it into a print every step: no graph, but a device tensor, read on the host each time (hold-out 17's
PSMNet `main.py`)."""

import time

import torch
import torch.nn.functional as F

model = torch.nn.Conv2d(6, 1, 3).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)


def train(left, right, disparity):
    model.train()
    left, right, disparity = left.cuda(), right.cuda(), disparity.cuda()
    optimizer.zero_grad()
    output = model(torch.cat([left, right], 1)).squeeze(1)
    loss = F.smooth_l1_loss(output, disparity)
    loss.backward()
    optimizer.step()
    return loss.data


def fit(net, batches, opt):
    loss = None
    for x, y in batches:
        opt.zero_grad()
        loss = F.mse_loss(net(x.cuda()), y.cuda())
        loss.backward()
        opt.step()
    return loss.detach()


def main(loader, epochs):
    for epoch in range(epochs):
        total = 0
        for batch_idx, (left, right, disparity) in enumerate(loader):
            start = time.time()
            loss = train(left, right, disparity)
            took = time.time() - start
            print("Iter %d loss = %.3f , time = %.2f" % (batch_idx, loss, took))  # expect: PP501
            total += loss
        print("epoch %d total training loss = %.3f" % (epoch, total / len(loader)))
