"""Helpers a model's forward calls: made on the host and moved on every forward, like the forward's own body."""

import torch
from torch import nn


def sequence_mask(lengths, max_len):
    seq_range = torch.arange(0, max_len).long()
    seq_range_expand = seq_range.unsqueeze(0).expand(lengths.size(0), max_len)
    if lengths.is_cuda:
        seq_range_expand = seq_range_expand.cuda()  # expect: PP506 high
    return seq_range_expand < lengths.unsqueeze(1)


class Tagger(nn.Module):
    def __init__(self, vocab, dim, use_gpu=True):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim)
        self.use_gpu = use_gpu

    def _features(self, sentence):
        embeds = self.embed(sentence)
        hidden = torch.zeros(1, sentence.size(0), embeds.size(-1))
        if self.use_gpu:
            hidden = hidden.cuda()  # expect: PP506 high
        out, _ = self.lstm(embeds, (hidden, hidden))
        return out

    def forward(self, sentence, lengths):
        mask = sequence_mask(lengths, sentence.size(1))
        return self._features(sentence) * mask.unsqueeze(-1)
