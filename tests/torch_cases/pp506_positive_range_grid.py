"""A YOLOv2 loss's grid of cell offsets made with `torch.range` (the deprecated arange that includes its
end) on the CPU in every forward, then moved under `torch.cuda.is_available()` (Yolo-v2-pytorch's
src/loss.py, hold-out 11; low-shot's one-hot class ids, hold-out 10)."""

import torch
from torch import nn


class YoloLoss(nn.Module):
    def __init__(self, num_classes, anchors):
        super().__init__()
        self.num_classes = num_classes
        self.anchors = torch.Tensor(anchors)
        self.num_anchors = len(anchors)

    def forward(self, output, target):
        batch_size, _, height, width = output.shape
        output = output.view(batch_size, self.num_anchors, -1, height * width)
        coord = output[:, :, :4].sigmoid()
        lin_x = torch.range(0, width - 1).repeat(height, 1).view(height * width)
        lin_y = torch.range(0, height - 1).repeat(width, 1).t().contiguous().view(height * width)
        if torch.cuda.is_available():
            lin_x = lin_x.cuda()  # expect: PP506 high
            lin_y = lin_y.cuda()  # expect: PP506 high
        boxes_x = coord[:, :, 0] + lin_x
        boxes_y = coord[:, :, 1] + lin_y
        return ((boxes_x - target[..., 0]) ** 2 + (boxes_y - target[..., 1]) ** 2).mean()


def get_one_hot(labels, num_classes):
    ids = torch.range(0, num_classes - 1).view(1, -1).cuda()  # expect: PP506 high
    return (labels.view(-1, 1).float() == ids).float()


def train(model, criterion, loader, optimizer, num_classes):
    model.cuda()
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        loss = criterion(model(images), get_one_hot(labels, num_classes))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
