"""(torch-fix111) A loss whose forward calls a helper making host tensors and moving them (ECN's `smooth_hot`),
and a model whose forward makes its prior under an option (AgentFormer): copies that run on every pass."""

import torch
from torch import nn


class InvarianceLoss(nn.Module):
    def __init__(self, num_classes, device, verbose=False):
        super().__init__()
        self.num_classes = num_classes
        self.device = device
        self.verbose = verbose

    def smooth_hot(self, inputs, targets, k=6):
        ones = torch.ones(inputs.size(0), k).to(self.device)  # expect: PP506
        one_hot = torch.zeros(inputs.size()).to(self.device)  # expect: PP506
        return one_hot.scatter_(1, targets, ones)

    def weights(self, inputs):
        if self.verbose:
            return torch.ones(inputs.size(0)).to(self.device)  # expect: PP506
        return None

    def forward(self, inputs, targets):
        hot = self.smooth_hot(inputs, targets)
        w = self.weights(inputs)
        loss = -(hot * inputs.log_softmax(1)).sum(1)
        return loss.mean() if w is None else (loss * w).mean()


class PriorNet(nn.Module):
    def __init__(self, nz, learn_prior, device):
        super().__init__()
        self.nz, self.learn_prior, self.device = nz, learn_prior, device

    def forward(self, x):
        if self.learn_prior:
            prior = torch.zeros(x.shape[0], self.nz).to(self.device)  # expect: PP506
        else:
            prior = torch.ones(x.shape[0], self.nz).to(self.device)  # expect: PP506
        return x + prior
