import torch.nn as nn
from utils.loss import CrossEntropy2d


def build_criterion(gpu):
    # a factory: built once by its caller
    return CrossEntropy2d().cuda(gpu)


def loss_calc(pred, label, gpu, mask):
    weight = mask.float().cuda(gpu)
    # built with this call's weights: it must be built for them
    return nn.CrossEntropyLoss(weight).cuda(gpu)(pred, label.long().cuda(gpu))


def train(model, loader, optimizer, gpu):
    criterion = build_criterion(gpu)
    for images, labels, masks in loader:
        images = images.cuda(gpu)
        optimizer.zero_grad()
        pred = model(images)
        loss = criterion(pred, labels.cuda(gpu)) + loss_calc(pred, labels, gpu, masks)
        loss.backward()
        optimizer.step()
