# torch-fix148 negatives: rows of data read in (a loader's work), a transpose of a weight, `torch.normal` of
# tensors (drawn where they are), a comprehension of data and a loader's batch read back and rebuilt.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda")


class SequenceReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(8, 8)

    def forward(self, x, table):
        rows = torch.from_numpy(np.asarray(table))
        outs = []
        for t in range(x.size(1)):
            outs.append(self.cell(x[:, t] + rows[t].to(x.device)))
        return outs


class TiedDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 8)

    def forward(self, h):
        weight = self.embed.weight.T
        return h @ weight.to(h.device)


def train(model, loader, optimizer):
    for batch, labels in loader:
        mean = torch.zeros(batch.size(0), 8, device=device)
        noise = torch.normal(mean, torch.ones_like(mean))
        rows = torch.stack([torch.from_numpy(np.asarray(s)) for s in batch]).to(device)
        label = labels.cpu().numpy()
        label = np.where(label == 4, 1, label)
        target = torch.from_numpy(label).to(device)
        loss = F.cross_entropy(model(rows) + noise, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Memory(nn.Module):
    # the attribute is replaced outside `__init__`: what is converted changes between calls
    def __init__(self, bank):
        super().__init__()
        self.bank = bank
        self.proj = nn.Linear(8, 8)

    def update(self, rows):
        self.bank = rows

    def forward(self, feats):
        bank = torch.FloatTensor(self.bank).cuda()
        return torch.matmul(self.proj(feats), bank)
