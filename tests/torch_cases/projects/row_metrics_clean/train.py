import torch
from metrics import iou_on_batch


def train_one_epoch(loader, model, criterion, optimizer, logger):
    for images, masks in loader:
        images, masks = images.cuda(), masks.cuda()
        preds = model(images)
        loss = criterion(preds, masks.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        logger.append(iou_on_batch(masks.cpu(), preds.detach().cpu()))  # expect: PP501
    return torch.tensor(logger).mean()
