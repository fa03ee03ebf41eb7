"""PP501 (torch-fix65): a meter the loop hands its loss tensor (`train_loss.update(loss)`, or a list of
per-subnet losses) keeps a device sum or copies each value to the host as it takes it: reading
`train_loss.avg.item()` in the tqdm postfix every step marks a step that waits for the GPU (ProxylessNAS' and
once-for-all's distributed metric)."""

import torch  # noqa: F401
from tqdm import tqdm
from utils import Metric


def train(model, loader, optimizer, criterion):
    model.cuda()
    train_loss = Metric("train_loss")
    with tqdm(total=len(loader)) as t:
        for data, target in loader:
            data, target = data.cuda(), target.cuda()
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            loss.backward()
            optimizer.step()
            train_loss.update(loss)
            t.set_postfix({"loss": train_loss.avg.item()})  # expect: PP501 high


def train_subnets(model, loader, optimizer, criterion, n_subnets):
    model.cuda()
    losses = Metric("loss")
    with tqdm(total=len(loader)) as t:
        for images, labels in loader:
            images, labels = images.cuda(), labels.cuda()
            optimizer.zero_grad()
            loss_of_subnets = []
            for _ in range(n_subnets):
                loss = criterion(model(images), labels)
                loss_of_subnets.append(loss)
                loss.backward()
            optimizer.step()
            losses.update(sum(loss_of_subnets) / n_subnets)
            t.set_postfix({"loss": losses.avg.item()})  # expect: PP501 high
