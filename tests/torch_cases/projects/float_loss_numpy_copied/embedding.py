import torch
from framework import Framework
from torch import nn


class Embedding(Framework):
    def __init__(self, batch_size, entities):
        super().__init__(batch_size)
        self.table = nn.Embedding(entities, 16).cuda()
        self.loss_fun = nn.BCELoss()

    def loss(self, mini_batch):
        e1 = torch.tensor([b[0] for b in mini_batch]).cuda()
        e2 = torch.tensor([b[1] for b in mini_batch]).cuda()
        scores = torch.sigmoid((self.table(e1) * self.table(e2)).sum(1))
        loss = self.loss_fun(scores, torch.ones_like(scores))
        return {"model_loss": loss, "print_loss": float(loss)}  # expect: PP501

    def embed_rows(self, e1):
        return self.table(e1).cpu().detach().numpy()
