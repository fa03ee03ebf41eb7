"""A forward that empties the cache only when a large input asks for it, and a module-level helper no forward
calls (run once after loading)."""

import torch
import torch.nn as nn


def release_memory():
    torch.cuda.empty_cache()


class ChunkedAttention(nn.Module):
    def __init__(self, dim, chunk):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.chunk = chunk

    def forward(self, x):
        if x.shape[1] > 8 * self.chunk:
            torch.cuda.empty_cache()
        return torch.cat([self.proj(part) for part in x.split(self.chunk, dim=1)], dim=1)
