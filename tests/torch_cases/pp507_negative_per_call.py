import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.criterion = nn.CrossEntropyLoss()  # built once, in __init__
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x, y=None):
        out = self.fc(x)
        return out if y is None else self.criterion(out, y)

    def get_loss_fn(self):
        if self.loss_fn is None:  # cached on first use
            self.loss_fn = nn.MSELoss()
        return self.loss_fn


def make_criterion(kind):
    # a factory called once before training
    return nn.L1Loss() if kind == "l1" else nn.MSELoss()


def train(model, loader, optimizer, epochs):
    criterion = make_criterion("l1")
    for _ in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            if torch.isnan(loss):
                loss = nn.SmoothL1Loss()(model(x), y)  # a rare fallback, under a data-dependent test
            loss.backward()
            optimizer.step()


def summarize(model, batch):
    # run once after training: nothing per step
    scores = nn.Softmax(dim=1)(model(batch))
    return F.one_hot(scores.argmax(1))


def weighted_bce_loss(inputs, label):
    # the weights come from this call's labels: the loss must be built for them
    mask = (label > 0.5).float() * 1.1
    return nn.BCELoss(mask, reduction="sum")(torch.sigmoid(inputs), label)


def check_loss(loader, model):
    # a validation number under no_grad, not a training step
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            criterion = nn.KLDivLoss(reduction="batchmean")
            total += criterion(F.log_softmax(model(x), dim=1), y).item()
    return total
