import torch
import utils


def train(model, data_loader, optimizer, criterion):
    for images, labels, empty in data_loader:
        images, labels = utils.cuda([images, labels])
        flags = utils.to_var(torch.LongTensor(empty))
        loss = criterion(model(images), labels) + model.classify(images, flags)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def to_var(x):
    return x.cuda()


def train_local(model, data_loader, optimizer):
    for images, _ in data_loader:
        images = to_var(images)
        loss = model(images).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
