"""A tagger model class that moves itself to the GPU when there is one (hold-out 13's lstm-crf-pytorch:
`if CUDA: self = self.cuda()` in `__init__`)."""

import torch
import torch.nn as nn

CUDA = torch.cuda.is_available()


class RnnTagger(nn.Module):
    def __init__(self, vocab_size, num_tags):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, 100)
        self.rnn = nn.LSTM(100, 200, batch_first=True)
        self.out = nn.Linear(200, num_tags)
        if CUDA:
            self = self.cuda()

    def forward(self, x, y):
        h, _ = self.rnn(self.embed(x))
        return nn.functional.cross_entropy(self.out(h).transpose(1, 2), y)
