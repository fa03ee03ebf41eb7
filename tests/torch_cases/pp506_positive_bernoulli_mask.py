"""An MC-dropout layer's forward draws its dropout mask with `torch.bernoulli` from probabilities made on
the host (`(1 - p) * torch.ones(shape)`) and copies the mask to the GPU on every forward
(JavierAntoran's Bayesian-Neural-Networks notebooks)."""

import torch
import torch.nn as nn


class MCDropoutLayer(nn.Module):
    def __init__(self, input_dim, output_dim, dropout_prob):
        super().__init__()
        self.dropout_prob = dropout_prob
        self.weights = nn.Parameter(torch.Tensor(input_dim, output_dim).uniform_(-0.01, 0.01))
        self.biases = nn.Parameter(torch.Tensor(output_dim).uniform_(-0.01, 0.01))

    def forward(self, x):
        p = self.dropout_prob
        mask = torch.bernoulli((1 - p) * torch.ones(self.weights.shape)).cuda()  # expect: PP506 high
        return torch.mm(x, self.weights * mask) + self.biases
