"""The mask drawn where its probabilities already are: from a tensor of the step (`torch.bernoulli(probs)`
of the model's output) or from probabilities made with `device=`."""

import torch
import torch.nn as nn


class MCDropoutLayer(nn.Module):
    def __init__(self, input_dim, output_dim, dropout_prob):
        super().__init__()
        self.dropout_prob = dropout_prob
        self.weights = nn.Parameter(torch.Tensor(input_dim, output_dim).uniform_(-0.01, 0.01))

    def forward(self, x):
        keep = (1 - self.dropout_prob) * torch.ones(self.weights.shape, device=x.device)
        dropout_mask = torch.bernoulli(keep).cuda()
        gate = torch.bernoulli(torch.sigmoid(x)).cuda()
        return torch.mm(x * gate, self.weights * dropout_mask)
