import torch


class Tagger(torch.nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, 64)
        self.out = torch.nn.Linear(64, 2)

    def forward(self, x):
        return self.out(self.emb(x).mean(1))
