import numpy as np
import torch
import torch.nn as nn
from utils.masking import TriangularCausalMask


class FullAttention(nn.Module):
    def __init__(self, max_len, mask_flag=True, attention_dropout=0.1):
        super().__init__()
        self.mask_flag = mask_flag
        self.dropout = nn.Dropout(attention_dropout)
        self.causal = TriangularCausalMask(1, max_len)

    def forward(self, queries, keys, values):
        _, L, _, E = queries.shape
        scores = torch.einsum("blhe,bshe->bhls", queries, keys) / E**0.5
        if self.mask_flag:
            scores.masked_fill_(self.causal.mask[..., :L, :L].to(scores.device), -np.inf)
        attention = self.dropout(torch.softmax(scores, dim=-1))
        return torch.einsum("bhls,bshd->blhd", attention, values)
