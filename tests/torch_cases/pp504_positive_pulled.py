"""MixMatch shape: loaders with num_workers=0 whose batches a training loop pulls with `.next()`."""

import torch
import torch.utils.data as data


def train(labeled_trainloader, unlabeled_trainloader, model, optimizer, criterion, train_iteration):
    labeled_train_iter = iter(labeled_trainloader)
    unlabeled_train_iter = iter(unlabeled_trainloader)
    model.train()
    for _ in range(train_iteration):
        try:
            inputs_x, targets_x = labeled_train_iter.next()
        except StopIteration:
            labeled_train_iter = iter(labeled_trainloader)
            inputs_x, targets_x = labeled_train_iter.next()
        try:
            (inputs_u, inputs_u2), _ = unlabeled_train_iter.next()
        except StopIteration:
            unlabeled_train_iter = iter(unlabeled_trainloader)
            (inputs_u, inputs_u2), _ = unlabeled_train_iter.next()
        inputs_x, targets_x = inputs_x.cuda(), targets_x.cuda(non_blocking=True)
        inputs_u = inputs_u.cuda()
        loss = criterion(model(inputs_x), targets_x) + model(inputs_u).mean() * 0
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(train_labeled_set, train_unlabeled_set, val_set, model, optimizer, criterion):
    labeled_trainloader = data.DataLoader(  # expect: PP504 # expect: PP505 medium
        train_labeled_set, batch_size=64, shuffle=True, num_workers=0, drop_last=True
    )
    unlabeled_trainloader = data.DataLoader(  # expect: PP504 # expect: PP505 medium
        train_unlabeled_set, batch_size=64, shuffle=True, num_workers=0, drop_last=True
    )
    val_loader = data.DataLoader(val_set, batch_size=64, shuffle=False, num_workers=0, pin_memory=True)
    model = model.cuda()
    for _epoch in range(10):
        train(labeled_trainloader, unlabeled_trainloader, model, optimizer, criterion, 1024)
        with torch.no_grad():
            for inputs, _targets in val_loader:
                model(inputs.cuda(non_blocking=True))
