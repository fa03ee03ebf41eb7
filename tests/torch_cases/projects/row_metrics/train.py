import torch
from metrics import dice_per_sample, iou_on_batch


def train_one_epoch(loader, model, criterion, optimizer, logger):
    for step, (images, masks) in enumerate(loader):
        images, masks = images.cuda(), masks.cuda()
        preds = model(images)
        loss = criterion(preds, masks.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_iou = iou_on_batch(masks, preds)  # expect: PP501
        logger.append(train_iou)
        if step % 100 == 0:
            logger.append(dice_per_sample(masks, preds))
    return torch.tensor(logger).mean()
