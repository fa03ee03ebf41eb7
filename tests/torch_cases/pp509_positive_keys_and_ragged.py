"""torch-fix41: the same loops over a tensor: elements of a model's output one at a time, and rows of a
batch tensor resized one by one and stacked again."""

import torch
import torch.nn.functional as F


def count_above(model, x, threshold):
    probs = model(x)
    hits = 0
    for p in probs:  # expect: PP509 low
        if p > threshold:
            hits += 1
    return hits


def resize(model, images, pred_size):
    logits = model(images)
    bs = logits.size(0)
    all_pred = []
    for i in range(bs):  # expect: PP509 low
        pred = logits[i]
        pred = F.interpolate(pred[None], size=(pred_size[0], pred_size[1]), mode="bilinear")
        all_pred.append(pred)
    return torch.cat(all_pred, dim=0)
