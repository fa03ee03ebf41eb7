"""Twins of pp509_positive_forward_rows.py that stay silent: the test reads a size (on the host), the tensor
is made on the host from NumPy or by a factory given no device, and a test of the loop's counter."""

import numpy as np
import torch
import torch.nn as nn


class Refiner(nn.Module):
    def forward(self, references, deltas):
        refs = torch.sigmoid(references)
        outputs = []
        for lvl in range(refs.size(0)):
            reference = refs[lvl]
            if reference.shape[-1] == 4:
                outputs.append(deltas[lvl] + reference)
            else:
                outputs.append(deltas[lvl][..., :2] + reference)
        return outputs


class HostCounts(nn.Module):
    def forward(self, x, counts):
        table = torch.from_numpy(np.asarray(counts))
        picked = []
        for i in range(x.size(0)):
            if i == 0:
                continue
            picked.append(x[i, : table[i].item()].sum())
        return picked


class SpanCombiner(nn.Module):
    def forward(self, masks):
        batch_size = masks.size(0)
        length = masks.size(1)
        spans = torch.rand(batch_size, length, 2).long()
        covers = []
        for b in range(batch_size):
            covers.append(spans[b, :, :].numpy().tolist())
        return covers
