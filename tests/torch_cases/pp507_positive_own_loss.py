"""PP507: the project's own loss class built and called at once in the step loop (SHOT), and a torch.nn
loss whose `nn` comes from a star import of the project's module (monodepth2)."""

import copy

import loss
import torch
from loss import CrossEntropyLabelSmooth
from utils import *  # noqa: F403  (hands over `nn`)


def train_source(args, netF, netC, optimizer, loader):
    iter_source = iter(loader)
    iter_num = 0
    best = None
    while iter_num < args.max_iter:
        inputs, labels = next(iter_source)
        iter_num += 1
        inputs, labels = inputs.cuda(), labels.cuda()
        outputs = netC(netF(inputs))
        classifier_loss = CrossEntropyLabelSmooth(num_classes=args.class_num, epsilon=0.1)(  # expect: PP507
            outputs, labels
        )
        optimizer.zero_grad()
        classifier_loss.backward()
        optimizer.step()
        if iter_num % 100 == 0:
            best = copy.deepcopy(netF.state_dict())  # keeps the weights: no new model
    return best


def train_digit(args, net, optimizer, loader):
    for inputs, labels in loader:
        inputs, labels = inputs.cuda(), labels.cuda()
        smoothed = loss.CrossEntropyLabelSmooth(num_classes=10, epsilon=0.1)(  # expect: PP507
            net(inputs), labels
        )
        optimizer.zero_grad()
        smoothed.backward()
        optimizer.step()


class Trainer:
    def compute_losses(self, inputs, outputs):
        losses = {}
        total = 0
        for scale in self.opt.scales:
            mask = outputs[("predictive_mask", scale)]
            weighting = nn.BCELoss()(mask, torch.ones(mask.shape, device=mask.device))  # noqa: F405  # expect: PP507 high
            total += weighting.mean()
        losses["loss"] = total
        return losses

    def train_epoch(self):
        for inputs in self.train_loader:
            outputs = self.model(inputs)
            losses = self.compute_losses(inputs, outputs)
            self.optimizer.zero_grad()
            losses["loss"].backward()
            self.optimizer.step()
