# torch-fix94: `train.py` calls `model.init_hidden()` every step; a copy of the model sits in `clone/`, as far from
# `train.py` by common path as this file, so only the folder tells which def the call runs
import torch
import torch.nn as nn
from torch.autograd import Variable


class Classifier(nn.Module):
    def __init__(self, hidden_dim, batch_size, use_gpu=True):
        super().__init__()
        self.gru = nn.GRU(hidden_dim, hidden_dim, bidirectional=True)
        self.hidden_dim = hidden_dim
        self.batch_size = batch_size
        self.gpu = use_gpu
        self.out = nn.Linear(2 * hidden_dim, 2)

    def init_hidden(self):
        if self.gpu is True:
            return Variable(torch.zeros(2, self.batch_size, self.hidden_dim)).cuda()  # expect: PP506
        return Variable(torch.zeros(2, self.batch_size, self.hidden_dim))

    def forward(self, x):
        out, _ = self.gru(x, self.hidden)
        return self.out(out[-1])
