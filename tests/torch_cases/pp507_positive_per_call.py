import torch
import torch.nn as nn
import torch.nn.functional as F


class YoloLayer(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes

    def forward(self, output, target):
        coord, conf = output[..., :4], output[..., 4]
        loss_coord = nn.MSELoss(reduction="sum")(coord, target[..., :4])  # expect: PP507 high
        loss_conf = nn.BCELoss(reduction="sum")(torch.sigmoid(conf), target[..., 4])  # expect: PP507 high
        return loss_coord + loss_conf


def compute_objectness_loss(scores, labels, weights):
    criterion = nn.CrossEntropyLoss(weights, reduction="none")  # expect: PP507 high
    return criterion(scores.transpose(2, 1), labels).mean()


def mse_loss(score, target):
    label = torch.full_like(score, float(target))
    criterion = nn.MSELoss()  # expect: PP507 high
    return criterion(score, label)


def train(model, loader, optimizer, args):
    for x, y in loader:
        optimizer.zero_grad()
        out = model(x)
        probs = nn.Softmax(dim=1)(out)  # expect: PP507
        if args.loss == "bce":
            loss = nn.BCEWithLogitsLoss()(out, F.one_hot(y).float())  # expect: PP507 high
        else:
            loss = F.cross_entropy(out, y)
        loss = loss + mse_loss(probs.max(1)[0], 1)
        if args.cls_par > 0:
            loss = loss + args.cls_par * nn.CrossEntropyLoss()(out, y)  # expect: PP507 high
        loss.backward()
        optimizer.step()


def compute_losses(outputs, targets, scales, opt):
    total = 0
    for scale in scales:
        pred = outputs[scale]
        if opt.predictive_mask:
            total = total + nn.BCELoss()(pred, targets[scale])  # expect: PP507 high
    return total
