"""A YOLO loss in a module that moves nothing to the GPU itself (the trainer of another module does):
`get_ignore`, run by the loss's `forward` on every step and scale, builds its grids with
`torch.linspace(...).repeat(...)` on the host and copies them with `.type_as(x)` to the prediction's
device (bubbliiiing's yolo3 and yolov4 losses)."""

import torch
import torch.nn as nn


class YOLOLoss(nn.Module):
    def __init__(self, anchors, num_classes):
        super().__init__()
        self.anchors, self.num_classes = anchors, num_classes

    def forward(self, scale, prediction, targets):
        bs, _, in_h, in_w = prediction.shape
        x = torch.sigmoid(prediction[..., 0])
        y = torch.sigmoid(prediction[..., 1])
        noobj_mask = self.get_ignore(scale, x, y, targets, in_h, in_w)
        return (noobj_mask * x).sum()

    def get_ignore(self, scale, x, y, targets, in_h, in_w):
        bs = len(targets)
        gx = torch.linspace(0, in_w - 1, in_w).repeat(in_h, bs * 3, 1).view(x.shape)
        grid_x = gx.type_as(x)  # expect: PP506 high
        grid_y = torch.linspace(0, in_h - 1, in_h).repeat(in_w, 1).t().type_as(x)  # expect: PP506 high
        return (x + grid_x) * (y + grid_y)
