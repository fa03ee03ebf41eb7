import numpy as np
import torch


def box_overlaps(boxes_a, boxes_b):
    """Pairwise IoU of two box arrays, all in NumPy."""
    top_left = np.maximum(boxes_a[:, None, :2], boxes_b[:, :2])
    bottom_right = np.minimum(boxes_a[:, None, 2:], boxes_b[:, 2:])
    inter = np.prod(bottom_right - top_left, axis=2) * (top_left < bottom_right).all(axis=2)
    area_a = np.prod(boxes_a[:, 2:] - boxes_a[:, :2], axis=1)
    area_b = np.prod(boxes_b[:, 2:] - boxes_b[:, :2], axis=1)
    return inter / (area_a[:, None] + area_b - inter)


class AnchorMatcher:
    def match(self, anchors, gt_boxes):
        overlaps = box_overlaps(anchors, gt_boxes)
        best_gt = overlaps.argmax(axis=1)
        best_anchor = overlaps.argmax(axis=0)
        for k in range(len(best_anchor)):  # a NumPy array: the def above returns host data
            best_gt[best_anchor[k]] = k
        return best_gt


def head_scores(net, images):
    scores = torch.sigmoid(net(images.cuda()))
    best_anchor = scores.argmax(dim=0)
    return best_anchor
