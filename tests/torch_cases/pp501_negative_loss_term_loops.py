"""PP501 (torch-fix129) negatives for loss defs with loops: a loss def whose reads sit in a loop over the
batch's samples (not the model's own terms: each read is a per-sample one the rule leaves to its loop
checks), one whose term loop reads only under a logging switch, and a pass over the training set in a def
named for its loss (pFedMe's `train_error_and_loss`, hold-out 29: an evaluation over `self.trainloaderfull`)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, names):
        super().__init__()
        self.device = torch.device("cuda")
        self.net = nn.Linear(2, 2).to(self.device)
        self.loss_names = names
        self.verbose = False

    def compute_loss(self, batch):
        total = 0
        sizes = []
        for sample in batch:
            out = self.net(sample.to(self.device))
            total = total + out.pow(2).mean()
            sizes.append(out.sum().item())
        return total, sizes

    def get_loss(self, x):
        out = self.net(x.to(self.device))
        total = 0
        logged = {}
        for name in self.loss_names:
            term = out.pow(2).mean()
            total = total + term
            if self.verbose and name.startswith("log"):
                logged[name] = term.item()
        return total, logged


class User:
    def __init__(self, model, loss, trainloaderfull):
        self.device = torch.device("cuda")
        self.model = model.to(self.device)
        self.loss = loss
        self.trainloaderfull = trainloaderfull

    def train_error_and_loss(self):
        train_acc = 0
        loss = 0
        for x, y in self.trainloaderfull:
            x, y = x.to(self.device), y.to(self.device)
            output = self.model(x)
            train_acc += (torch.sum(torch.argmax(output, dim=1) == y)).item()
            loss += self.loss(output, y).detach()
        return loss, train_acc
