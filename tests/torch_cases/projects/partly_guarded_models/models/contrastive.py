"""A contrastive model whose eval-mode forward returns a no_grad method: it guards only itself."""

import torch
import torch.nn as nn


class ContrastiveModel(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.backbone = nn.Linear(512, dim)

    @torch.no_grad()
    def eval_knn(self, q):
        return q.topk(5, dim=1)

    def forward(self, clips):
        q = self.backbone(clips)
        if not self.training:
            return self.eval_knn(q)
        return q
