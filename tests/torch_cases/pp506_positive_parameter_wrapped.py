"""A loss def wrapping a host constant in `nn.Parameter(...)` and moving it on every call: the wrapper is
followed to the tensor it holds, as `Variable(...)` is."""

import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def psa_loss(enhanced, target, mixture):
    floor = nn.Parameter(data=torch.ones((1,)) * 1e-9, requires_grad=False)
    eps = floor.to(enhanced.device)  # expect: PP506 high
    angle_mixture = torch.tanh(mixture[..., 1] / (mixture[..., 0] + eps))
    angle_target = torch.tanh(target[..., 1] / (target[..., 0] + eps))
    return ((enhanced - target * torch.cos(angle_mixture - angle_target)) ** 2).mean()
