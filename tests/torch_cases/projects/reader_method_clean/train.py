import torch
from lib.utils.meters import AverageMeter, DeviceLogger, Result


def train(model, data_loader, optimizer, print_freq):
    torch.backends.cudnn.benchmark = True
    meters = DeviceLogger()
    loss_meter = AverageMeter()
    model.train()
    for iteration, (images, targets) in enumerate(data_loader):
        images, targets = images.cuda(), targets.cuda()
        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())
        meters.update(loss=losses, **loss_dict)
        loss_meter.update(losses.detach(), images.size(0))
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        if iteration % print_freq == 0:
            result = Result()
            result.evaluate(model(images), targets)
            print(meters.summary())
