"""A VAE's reparametrisation, run by every forward: the noise is a legacy constructor sized by a tensor's
shape (`torch.FloatTensor(std.size())`), filled by `.normal_()` on the host and then copied to the GPU
(the VAE notebooks of two tutorial repositories)."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, 20)
        self.fc22 = nn.Linear(400, 20)
        self.fc3 = nn.Linear(20, 784)

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp_()
        eps = torch.FloatTensor(std.size()).normal_()
        eps = Variable(eps).cuda()  # expect: PP506 high
        return eps.mul(std).add_(mu)

    def forward(self, x):
        h1 = F.relu(self.fc1(x))
        mu, logvar = self.fc21(h1), self.fc22(h1)
        return torch.sigmoid(self.fc3(self.reparametrize(mu, logvar))), mu, logvar
