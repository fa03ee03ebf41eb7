"""(torch-fix86) The twin of pp506_negative_outer_pass.py that is still reported: a copy inside the inner
loader loop runs every batch, and a loss def that takes the batch (`def get_loss(cfg, pred, target)`) builds its
weights on every call of the step loop."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def get_loss(cfg, pred, target):
    weight = torch.FloatTensor([2, 1, 1, 1]).cuda()  # expect: PP506 high
    return F.cross_entropy(pred, target, weight=weight, reduction=cfg.reduction)


def test(obj_names, make_model, make_dataset):
    scores = []
    for obj_name in obj_names:
        model = make_model(obj_name).cuda().eval()
        dataloader = DataLoader(make_dataset(obj_name), batch_size=1, pin_memory=True)
        with torch.no_grad():
            for batch in dataloader:
                image = batch["image"].cuda()
                noise = torch.randn(image.shape).cuda()  # expect: PP506 high
                scores.append(model(image + noise).mean())
    return scores


def train(cfg, model, loader, optimizer):
    for pred_in, target in loader:
        pred = model(pred_in.cuda())
        loss = get_loss(cfg, pred, target.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
