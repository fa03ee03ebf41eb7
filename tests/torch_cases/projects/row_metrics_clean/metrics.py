"""The same helper handed host arrays (`preds.detach().cpu()`), and one only an evaluation script calls:
nothing to report."""

import numpy as np
import torch


def iou_on_batch(masks, pred):
    ious = []
    for i in range(pred.shape[0]):
        pred_tmp = pred[i][0].cpu().detach().numpy()
        mask_tmp = masks[i].cpu().detach().numpy()
        inter = np.logical_and(pred_tmp >= 0.5, mask_tmp > 0).sum()
        union = np.logical_or(pred_tmp >= 0.5, mask_tmp > 0).sum()
        ious.append(inter / max(union, 1))
    return torch.tensor(ious).mean()
