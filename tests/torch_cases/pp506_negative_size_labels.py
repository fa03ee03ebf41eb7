"""Arrays with the step's data in them: positions masked by the (host) batch (`poss *= log_seqs != 0`,
SASRec), labels read from the batch, and a replay memory kept on `self` that every step appends to, a
list of the step's losses, and a list of sizes alone (`[w, h, w, h]`: host data however it is made).
(Timesteps drawn by numpy's generator were here until torch-fix50: random numbers made on the host,
`pp506_positive_numpy_draws.py`.)"""

import numpy as np
import torch
import torch.nn as nn


class SASRec(nn.Module):
    def __init__(self, item_num, hidden, maxlen, dev):
        super().__init__()
        self.dev = dev
        self.memory = []
        self.item_emb = nn.Embedding(item_num + 1, hidden, padding_idx=0)
        self.pos_emb = nn.Embedding(maxlen + 1, hidden, padding_idx=0)

    def forward(self, log_seqs, weights, batch_labels):
        seqs = self.item_emb(torch.LongTensor(log_seqs).to(self.dev))
        poss = np.tile(np.arange(1, log_seqs.shape[1] + 1), [log_seqs.shape[0], 1])
        poss *= log_seqs != 0
        seqs = seqs + self.pos_emb(torch.LongTensor(poss).to(self.dev))
        labels = np.asarray(batch_labels).reshape(-1)
        y = torch.LongTensor(labels).to(self.dev)
        self.memory.append(log_seqs.shape[0])
        seen = torch.LongTensor(np.array(self.memory)).to(self.dev)
        losses = []
        for k in range(log_seqs.shape[0]):
            losses.append(seqs[k].sum())
        total = torch.Tensor([losses]).to(self.dev)
        h, w = log_seqs.shape
        scale = torch.Tensor([w, h, w, h]).to(self.dev)
        return seqs, y, seen, total, scale
