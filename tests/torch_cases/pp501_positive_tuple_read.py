# pycls's and ConvNeXt-V2's steps: three stats read into a tuple of names for the meters, and a loss read
# whose only other use is an `assert math.isfinite(...)` that stops a diverged run
import math

import torch


def train_epoch(loader, model, loss_fun, optimizer, meter, topk_errors, cur_epoch):
    model.train()
    for cur_iter, (inputs, labels) in enumerate(loader):
        inputs, labels = inputs.cuda(), labels.cuda(non_blocking=True)
        preds = model(inputs)
        loss = loss_fun(preds, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        top1_err, top5_err = topk_errors(preds, labels, [1, 5])
        loss, top1_err, top5_err = loss.item(), top1_err.item(), top5_err.item()  # expect: PP501
        meter.update_stats(top1_err, top5_err, loss, inputs.size(0))
        meter.log_iter_stats(cur_epoch, cur_iter)


def finetune_one_epoch(model, criterion, data_loader, optimizer, device, metric_logger):
    for samples, targets in data_loader:
        samples, targets = samples.to(device, non_blocking=True), targets.to(device, non_blocking=True)
        loss = criterion(model(samples), targets)
        loss_value = loss.item()  # expect: PP501
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            assert math.isfinite(loss_value)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        metric_logger.update(loss=loss_value)


model = torch.nn.Linear(10, 2).cuda()
