"""A text detector's loss module prints its three terms, formatted into the text, on every call of its
`forward` (hold-out 17's EAST `Loss.forward`): each is read on the host every training step. The module
places nothing itself (the training script moves the batches), so it is reported at medium."""

import torch
from torch import nn


def dice_loss(gt_score, pred_score):
    inter = torch.sum(gt_score * pred_score)
    union = torch.sum(gt_score) + torch.sum(pred_score) + 1e-5
    return 1.0 - (2 * inter / union)


class Loss(nn.Module):
    def __init__(self, weight_angle=10):
        super().__init__()
        self.weight_angle = weight_angle

    def forward(self, gt_score, pred_score, gt_geo, pred_geo):
        classify_loss = dice_loss(gt_score, pred_score)
        angle_loss = torch.sum((1 - torch.cos(pred_geo - gt_geo)) * gt_score) / torch.sum(gt_score)
        text = "classify loss is {:.8f}, angle loss is {:.8f}"
        print(text.format(classify_loss, angle_loss))  # expect: PP501 medium
        return self.weight_angle * angle_loss + classify_loss
