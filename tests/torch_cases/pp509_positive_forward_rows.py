"""Per-row host reads in a forward or a loss, of tensors the def makes with torch ops from its inputs
(torch-fix55): the def does not say where they live, but a forward's inputs are on the model's device.
An `if` on a row's value (`if r_det < 0`) reads it to the host as `.item()` does."""

import torch
import torch.nn as nn


class SVDHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.reflect = nn.Parameter(torch.eye(3), requires_grad=False)

    def forward(self, src_embedding, tgt_embedding, src, tgt):
        scores = torch.softmax(torch.matmul(src_embedding.transpose(2, 1), tgt_embedding), dim=2)
        src_corr = torch.matmul(tgt, scores.transpose(2, 1))
        H = torch.matmul(src - src.mean(dim=2, keepdim=True), src_corr.transpose(2, 1))
        rotations = []
        for i in range(src.size(0)):
            u, s, v = torch.svd(H[i])
            r = torch.matmul(v, u.transpose(1, 0))
            r_det = torch.det(r)
            if r_det < 0:  # expect: PP509
                r = torch.matmul(torch.matmul(v, self.reflect), u.transpose(1, 0))
            rotations.append(r)
        return torch.stack(rotations, dim=0)


class SimOTALoss(nn.Module):
    def forward(self, ious, costs, num_gt):
        top_k, _ = torch.topk(ious, 10, dim=1)
        dynamic_ks = torch.clamp(top_k.sum(1).int(), min=1)
        matching = torch.zeros_like(costs)
        for gt_idx in range(num_gt):
            k = dynamic_ks[gt_idx].item()  # expect: PP509 medium
            _, pos_idx = torch.topk(costs[gt_idx], k=k, largest=False)
            matching[gt_idx][pos_idx] = 1.0
        return matching
