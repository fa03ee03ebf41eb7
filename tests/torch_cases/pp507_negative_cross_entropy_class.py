import torch.nn as nn
from utils.loss import CrossEntropy2d


def build_criterion(gpu):
    # a factory: built once by its caller
    criterion = CrossEntropy2d().cuda(gpu)
    return criterion


def loss_calc(pred, label, criterion):
    return criterion(pred, label.long())


def train(model, loader, optimizer, gpu):
    criterion = build_criterion(gpu)
    for images, labels in loader:
        images = images.cuda(gpu)
        optimizer.zero_grad()
        loss = loss_calc(model(images), labels.cuda(gpu), criterion)
        loss.backward()
        optimizer.step()


def build_criterion_returned(gpu):
    # a factory returning the moved loss directly: built once by its caller
    return CrossEntropy2d().cuda(gpu)


def weighted_loss_calc(pred, label, gpu, mask):
    weight = mask.float().cuda(gpu)
    # built with this call's weights: it must be built for them
    return nn.CrossEntropyLoss(weight).cuda(gpu)(pred, label.long().cuda(gpu))


def train_returned(model, loader, optimizer, gpu):
    criterion = build_criterion_returned(gpu)
    for images, labels, masks in loader:
        images = images.cuda(gpu)
        optimizer.zero_grad()
        pred = model(images)
        loss = criterion(pred, labels.cuda(gpu)) + weighted_loss_calc(pred, labels, gpu, masks)
        loss.backward()
        optimizer.step()


class CrossEntropyMeter:
    def __init__(self):
        self.total = 0.0

    def update(self, value):
        self.total += value


def validate(model, loader):
    meter = CrossEntropyMeter()
    for _batch in loader:
        meter.update(1.0)
    return meter.total


def weighted_loss(pred, target, masks):
    total = 0
    for i in range(len(masks)):
        weight = masks[i].float()
        criterion = nn.BCELoss(weight)
        total = total + criterion(pred[i], target[i])
    return total
