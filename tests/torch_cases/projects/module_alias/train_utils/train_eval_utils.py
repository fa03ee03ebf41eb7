"""The training loop of a detection project (deep-learning-for-image-processing's train_eval_utils)."""

import torch


def train_one_epoch(model, optimizer, data_loader, device, epoch):
    model.train()
    for images, targets in data_loader:
        images = [image.to(device) for image in images]
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        losses = sum(model(images, targets).values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
    torch.cuda.synchronize()
    return epoch
