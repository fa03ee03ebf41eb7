"""torch-fix41 (tuned on hold-out 15): YOLOX's `get_losses` reads each image's number of boxes to the host
with `int(nlabel[batch_idx])`, one read per image of every training step (`low` in torch-fix41; `medium` since
torch-fix44: 3 of 3 such reads right in three repositories)."""

import torch


def get_losses(outputs, labels, num_classes):
    nlabel = (labels.sum(dim=2) > 0).sum(dim=1)
    num_gts = 0.0
    targets = []
    for batch_idx in range(outputs.shape[0]):
        num_gt = int(nlabel[batch_idx])  # expect: PP509
        num_gts += num_gt
        if num_gt == 0:
            targets.append(outputs.new_zeros((0, num_classes)))
        else:
            targets.append(labels[batch_idx, :num_gt, 0])
    return torch.cat(targets), num_gts
