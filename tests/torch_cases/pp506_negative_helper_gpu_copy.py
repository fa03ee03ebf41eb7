# torch-fix92's clean twin: the same helper and loss make their tensors on the device they are given
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, vocab, hidden_dim=128):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.embed = nn.Embedding(vocab, hidden_dim)
        self.lstm = nn.LSTM(hidden_dim, hidden_dim)
        self.out = nn.Linear(hidden_dim, 2)

    def init_hidden(self, batch_size, device):
        h0 = torch.zeros(1, batch_size, self.hidden_dim, device=device)
        c0 = torch.zeros(1, batch_size, self.hidden_dim, device=device)
        return h0, c0

    def forward(self, tokens):
        hidden = self.init_hidden(tokens.size(1), tokens.device)
        out, _ = self.lstm(self.embed(tokens), hidden)
        return self.out(out[-1])

    def margin_loss(self, props, target):
        left = torch.clamp(0.9 - props, min=0).pow(2)
        return (target * left).sum()
