"""(torch-fix109) Two edge-loss helpers that copy a fixed kernel to the GPU on every call: the trainer imports
the edge loss, so its kernel's copy runs every step; the Laplacian loss is left over and nothing calls it, so
its helper's copy is code nothing runs, reported below the default."""

import torch
import torch.nn.functional as F


def laplacian(x):
    weight = torch.tensor([[[[0.0, -1.0, 0.0], [-1.0, 4.0, -1.0], [0.0, -1.0, 0.0]]]])
    if torch.cuda.is_available():
        weight = weight.cuda()  # expect: PP506
    return F.conv2d(x, weight, padding=1)


def laplacian_loss(target, out):
    return F.l1_loss(laplacian(target), laplacian(out))


def sobel(x):
    weight = torch.tensor([[[[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]]])
    if torch.cuda.is_available():
        weight = weight.cuda()  # expect: PP506
    return F.conv2d(x, weight, padding=1)


def edge_loss(target, out):
    return F.l1_loss(sobel(target), sobel(out))
