"""PP509: range loops that test one element of a tensor at a time (a pose net's `calc_dists`, YOLOv3's
`build_targets` that stops at the padding rows) and a loop over index pairs reading one element each
(VGAE's `get_scores`)."""

import numpy as np
import torch


def calc_dists(preds, target, normalize):
    preds = preds.float()
    target = target.float()
    dists = torch.zeros(preds.size(1), preds.size(0))
    for n in range(preds.size(0)):  # expect: PP509 low
        for c in range(preds.size(1)):
            if target[n, c, 0] > 1 and target[n, c, 1] > 1:
                dists[c, n] = torch.dist(preds[n, c, :], target[n, c, :]) / normalize[n]
            else:
                dists[c, n] = -1
    return dists


def build_targets(target, n_batch, n_w, n_h):
    n_gt = 0
    for b in range(n_batch):
        tbox = target[b].view(-1, 5).to("cpu")
        for t in range(50):  # expect: PP509 low
            if tbox[t][1] == 0:
                break
            n_gt += 1
            n_gt += int(tbox[t][1] * n_w > 0) + int(tbox[t][2] * n_h > 0)
    return n_gt


def get_scores(edges_pos, adj_rec):
    preds = []
    for e in edges_pos:
        preds.append(1 / (1 + np.exp(-adj_rec[e[0], e[1]].item())))  # expect: PP509
    return preds
