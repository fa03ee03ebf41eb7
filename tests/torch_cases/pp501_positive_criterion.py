"""Host reads in the `forward` of a loss or criterion, which runs on every training step: medium (the caller
and its device are in another module)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class WeightedBCE(nn.Module):
    def __init__(self, weights=(0.4, 0.6)):
        super().__init__()
        self.weights = weights

    def forward(self, logit_pixel, truth_pixel):
        logit, truth = logit_pixel.view(-1), truth_pixel.view(-1)
        loss = F.binary_cross_entropy(logit, truth, reduction="none")
        pos, neg = (truth > 0.5).float(), (truth < 0.5).float()
        pos_weight = pos.sum().item() + 1e-12  # expect: PP501 medium
        neg_weight = neg.sum().item() + 1e-12
        return (self.weights[0] * pos * loss / pos_weight + self.weights[1] * neg * loss / neg_weight).sum()


class DiceLoss(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.n_classes = n_classes

    def _dice(self, score, target):
        intersect = torch.sum(score * target)
        return 1 - (2 * intersect + 1e-5) / (torch.sum(score * score) + torch.sum(target * target) + 1e-5)

    def forward(self, inputs, target):
        inputs = torch.softmax(inputs, dim=1)
        target = F.one_hot(target, self.n_classes).permute(0, 3, 1, 2).float()
        class_wise_dice = []
        loss = 0.0
        for i in range(0, self.n_classes):
            dice = self._dice(inputs[:, i], target[:, i])
            class_wise_dice.append(1.0 - dice.item())  # expect: PP501 medium
            loss += dice
        return loss / self.n_classes


class SetCriterion(nn.Module):
    def __init__(self, matcher, losses):
        super().__init__()
        self.matcher = matcher
        self.losses = losses

    def forward(self, outputs, targets):
        indices = self.matcher(outputs, targets)
        num_boxes = sum(len(t["labels"]) for t in targets)
        num_boxes = torch.as_tensor([num_boxes], dtype=torch.float, device=outputs["logits"].device)
        num_boxes = torch.clamp(num_boxes, min=1).item()  # expect: PP501 medium
        return {name: self.get_loss(name, outputs, targets, indices, num_boxes) for name in self.losses}
