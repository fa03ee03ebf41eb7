"""PP501 (torch-fix65), clean twin of pp501_positive_fed_meter.py: an attribute of an outer object the loop
hands no tensor of its graph (a split index; a timer fed host numbers) stays on the host."""

import time

import torch  # noqa: F401
from utils import Timer


def train(model, loader, optimizer, criterion, dataset, history):
    model.cuda()
    timer = Timer()
    for data, target in loader:
        start = time.time()
        data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        loss = criterion(model(data), target)
        loss.backward()
        optimizer.step()
        timer.update(time.time() - start)
        picked = dataset.train_idx.tolist()
        history.append((timer.total.item(), len(picked)))
