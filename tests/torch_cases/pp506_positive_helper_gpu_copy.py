# torch-fix92: `.cuda()` under the def's own CPU/GPU switch in a helper a forward calls, and in a loss method
import torch
import torch.nn as nn
from torch.autograd import Variable


class Tagger(nn.Module):
    def __init__(self, vocab, hidden_dim=128, use_gpu=True):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.use_gpu = use_gpu
        self.embed = nn.Embedding(vocab, hidden_dim)
        self.lstm = nn.LSTM(hidden_dim, hidden_dim)
        self.out = nn.Linear(hidden_dim, 2)

    def init_hidden(self, batch_size):
        if self.use_gpu:
            h0 = Variable(torch.zeros(1, batch_size, self.hidden_dim).cuda())  # expect: PP506 high
            c0 = Variable(torch.zeros(1, batch_size, self.hidden_dim).cuda())  # expect: PP506 high
        else:
            h0 = Variable(torch.zeros(1, batch_size, self.hidden_dim))
            c0 = Variable(torch.zeros(1, batch_size, self.hidden_dim))
        return h0, c0

    def forward(self, tokens):
        hidden = self.init_hidden(tokens.size(1))
        out, _ = self.lstm(self.embed(tokens), hidden)
        return self.out(out[-1])

    def margin_loss(self, props, target):
        zero = Variable(torch.zeros(1))
        if self.use_gpu:
            zero = zero.cuda()  # expect: PP506 high
        left = torch.max(zero, 0.9 - props).pow(2)
        return (target * left).sum()
