# an optimizer built once per restart, repeat or client, each running a whole inner training loop
# (DeepSymRegTorch's NaN restarts, few_shot_gaze's calibration repeats, pFedHN's client rounds): a fresh
# optimizer there is on purpose; it stays `low`
import numpy as np
import torch
from torch import nn, optim


def fit_with_restarts(net, data, target, epochs):
    loss_val = np.nan
    while np.isnan(loss_val):
        criterion = nn.MSELoss()
        optimizer = optim.RMSprop(net.parameters(), lr=0.01)  # expect: PP507 low
        for _epoch in range(epochs):
            optimizer.zero_grad()
            loss = criterion(net(data), target)
            loss.backward()
            optimizer.step()
            loss_val = loss.item()


def calibrate(model, tasks, repeats, steps):
    for task_batches in tasks:
        for _t in range(repeats):
            optim_ = torch.optim.SGD(model.parameters(), lr=0.01)  # expect: PP507 low
            for _j in range(steps):
                optim_.zero_grad()
                model(task_batches).mean().backward()
                optim_.step()


def rounds(hnet, net, loaders, steps, inner_steps, optimizer):
    for _step in range(steps):
        net.load_state_dict(hnet())
        inner_optim = torch.optim.SGD(net.parameters(), lr=0.01)  # expect: PP507 low
        for _i in range(inner_steps):
            inner_optim.zero_grad()
            net(loaders[_i]).mean().backward()
            inner_optim.step()
        optimizer.zero_grad()
        hnet().mean().backward()
        optimizer.step()
