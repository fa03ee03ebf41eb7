import torch
from torch import nn


def to_gpu(x):
    x = x.contiguous()
    if torch.cuda.is_available():
        x = x.cuda(non_blocking=True)
    return x


class Tacotron2(nn.Module):
    def __init__(self, hparams):
        super().__init__()
        self.embedding = nn.Embedding(hparams.n_symbols, hparams.symbols_embedding_dim)
        self.proj = nn.Linear(hparams.symbols_embedding_dim, hparams.n_mel_channels)

    def parse_batch(self, batch):
        text_padded, input_lengths, mel_padded, gate_padded = batch
        text_padded = to_gpu(text_padded).long()
        input_lengths = to_gpu(input_lengths).long()
        mel_padded = to_gpu(mel_padded).float()
        return (text_padded, input_lengths), mel_padded

    def forward(self, inputs):
        text, lengths = inputs
        return self.proj(self.embedding(text))
