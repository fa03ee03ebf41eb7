import torch
from lib.utils import metric_logger as utils
from lib.utils.metric_logger import MetricLogger, Result


def train(model, data_loader, optimizer, max_iter):
    torch.backends.cudnn.benchmark = True
    meters = MetricLogger(delimiter="  ")
    model.train()
    for iteration, (images, targets) in enumerate(data_loader):
        images = images.cuda()
        targets = [t.cuda() for t in targets]
        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())
        meters.update(loss=losses, **loss_dict)  # expect: PP501
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        if iteration % 20 == 0:
            print(str(meters))


def train_depth(train_loader, model, criterion, optimizer):
    model.train()
    for input, target in train_loader:
        input, target = input.cuda(), target.cuda()
        pred = model(input)
        loss = criterion(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        result = Result()
        result.evaluate(pred.data, target.data)  # expect: PP501


def train_simclr(model, train_loader, optimizer, device):
    train_logs = []
    for batch in train_loader:
        batch = [x.to(device) for x in batch]
        logs = model.train_step(batch)
        loss = logs["loss"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_logs.append({k: utils.tonp(v) for k, v in logs.items()})  # expect: PP501
    return train_logs
