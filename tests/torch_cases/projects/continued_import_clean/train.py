import torch
from util import (
    tensor_lab2rgb,
    uncenter_l,
)


def show(lab):
    return tensor_lab2rgb(torch.cat((uncenter_l(lab[:, :1]), lab[:, 1:]), dim=1))


def train(model, loader, optimizer, epochs):
    for _ in range(epochs):
        for lab, target in loader:
            lab, target = lab.cuda(), target.cuda()
            loss = (model(lab) - target).abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
