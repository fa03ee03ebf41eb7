"""PP501 (torch-fix62) near misses of `pp501_positive_number_check.py`: a helper whose name checks something
else than a number (`is_valid_clip(...)`) makes a test the loop's own logic needs, so the loop is still left
alone; a number check on a value the loop computed on the host reads nothing."""

import torch


def is_valid_clip(value):
    return value < 1e4


def is_valid_number(x):
    return x == x


def train(model, loader, optimizer):
    model = model.cuda()
    for template, search in loader:
        loss = model(template.cuda(), search.cuda())
        optimizer.zero_grad()
        loss.backward()
        if is_valid_clip(loss.item()):
            optimizer.step()
        print(loss.item())


def train_timed(model, loader, optimizer, clock):
    model = model.cuda()
    for template, search in loader:
        start = clock()
        loss = model(template.cuda(), search.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if is_valid_number(clock() - start):
            torch.cuda.empty_cache()
