"""The same grid made with `torch.range` once, in `__init__`, and kept as a buffer that moves with the
module: one copy, not one per forward."""

import torch
from torch import nn


class YoloLoss(nn.Module):
    def __init__(self, num_classes, anchors, height=13, width=13):
        super().__init__()
        self.num_classes = num_classes
        self.num_anchors = len(anchors)
        self.register_buffer("lin_x", torch.range(0, width - 1).repeat(height, 1).view(height * width))
        self.register_buffer("lin_y", torch.range(0, height - 1).repeat(width, 1).t().reshape(-1))

    def forward(self, output, target):
        batch_size, _, height, width = output.shape
        output = output.view(batch_size, self.num_anchors, -1, height * width)
        coord = output[:, :, :4].sigmoid()
        boxes_x = coord[:, :, 0] + self.lin_x
        boxes_y = coord[:, :, 1] + self.lin_y
        return ((boxes_x - target[..., 0]) ** 2 + (boxes_y - target[..., 1]) ** 2).mean()


def class_ids(num_classes, device):
    return torch.range(0, num_classes - 1, device=device).view(1, -1)


def train(model, criterion, loader, optimizer, num_classes):
    model.cuda()
    ids = torch.range(0, num_classes - 1).view(1, -1).cuda()
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        loss = criterion(model(images), (labels.view(-1, 1).float() == ids).float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
