"""UCTransNet's shape: a metric helper reads each sample's mask and prediction to the host in a loop over
the batch; it learns from the training module that both are device tensors, handed over every step."""

import numpy as np
import torch


def iou_on_batch(masks, pred):
    ious = []
    for i in range(pred.shape[0]):
        pred_tmp = pred[i][0].cpu().detach().numpy()  # expect: PP509
        mask_tmp = masks[i].cpu().detach().numpy()
        inter = np.logical_and(pred_tmp >= 0.5, mask_tmp > 0).sum()
        union = np.logical_or(pred_tmp >= 0.5, mask_tmp > 0).sum()
        ious.append(inter / max(union, 1))
    return torch.tensor(ious).mean()


def dice_per_sample(masks, pred):
    scores = []
    for i in range(pred.shape[0]):
        p = pred[i].cpu().numpy()
        scores.append(2 * (p * masks[i]).sum() / (p.sum() + masks[i].sum() + 1e-6))
    return scores
