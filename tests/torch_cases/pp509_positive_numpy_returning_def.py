import torch


def box_overlaps(boxes_a, boxes_b):
    """Pairwise IoU of two box tensors, on their device."""
    top_left = torch.max(boxes_a[:, None, :2], boxes_b[:, :2])
    bottom_right = torch.min(boxes_a[:, None, 2:], boxes_b[:, 2:])
    inter = (bottom_right - top_left).clamp(min=0).prod(dim=2)
    area_a = (boxes_a[:, 2:] - boxes_a[:, :2]).prod(dim=1)
    area_b = (boxes_b[:, 2:] - boxes_b[:, :2]).prod(dim=1)
    return inter / (area_a[:, None] + area_b - inter)


class AnchorMatcher:
    def match(self, anchors, gt_boxes):
        overlaps = box_overlaps(anchors.cuda(), gt_boxes.cuda())
        best_gt = overlaps.argmax(dim=1)
        best_anchor = overlaps.argmax(dim=0)
        for k in range(len(best_anchor)):  # expect: PP509 low
            best_gt[best_anchor[k]] = k
        return best_gt
