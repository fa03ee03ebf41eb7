"""(torch-fix86) A loop over object classes, each loading a model and testing it over a loader of its own:
the display buffers made in the outer loop's body are made once per class (once per whole pass over that
class's data), as an epoch loop's accumulator is. And a def that takes only the configuration and builds the
criterion (`get_loss(cfg)`) makes its class weights once, when the criterion is made."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def get_loss(cfg):
    return nn.CrossEntropyLoss(weight=torch.FloatTensor([2, 1, 1, 1]).cuda(), reduction=cfg.reduction)


def test(obj_names, make_model, make_dataset):
    scores = []
    for obj_name in obj_names:
        model = make_model(obj_name).cuda().eval()
        dataloader = DataLoader(make_dataset(obj_name), batch_size=1, pin_memory=True)
        display_images = torch.zeros((16, 3, 256, 256)).cuda()
        display_masks = torch.zeros((16, 1, 256, 256)).cuda()
        with torch.no_grad():
            for i_batch, batch in enumerate(dataloader):
                image = batch["image"].cuda()
                out = model(image)
                if i_batch < 16:
                    display_images[i_batch] = image[0]
                    display_masks[i_batch] = out[0, :1]
        scores.append(display_masks.mean())
    return scores
