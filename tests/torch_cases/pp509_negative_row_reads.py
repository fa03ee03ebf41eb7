"""Near misses of the per-row host reads (torch-fix48): rows already on the host, a dict of losses, a list of
per-image result dicts, rows written to files or drawn, a recurrent cell's state, a data set class that only
sounds like a model, `.numpy()` with no `.cpu()`, a loop over a layer count."""

import numpy as np
import torch
import torch.nn as nn
from PIL import Image


def rank_on_host(model, batches):
    ranks = []
    with torch.no_grad():
        for x, target in batches:
            argsort = torch.argsort(model(x.cuda()), dim=1).cpu()
            for i in range(x.size(0)):
                ranks.append((argsort[i] == target[i]).nonzero().item())
    return ranks


def evaluate_boxes(model, loader):
    preds = []
    with torch.no_grad():
        for images, _ in loader:
            outputs = model([im.cuda() for im in images])
            for i in range(len(images)):
                preds.append({"boxes": outputs[i]["boxes"].cpu(), "scores": outputs[i]["scores"].cpu()})
    return preds


def save_samples(model, loader, folder):
    count = 0
    with torch.no_grad():
        for z in loader:
            samples = model(z.cuda())
            for sample in samples:
                Image.fromarray(sample.cpu().numpy().astype(np.uint8)).save(f"{folder}/{count:05}.png")
                count += 1


class Controller(nn.Module):
    def __init__(self, cell):
        super().__init__()
        self.cell = cell

    def forward(self, embed, hidden):
        norms = []
        for step in range(embed.size(0)):
            x_t = embed[step]
            hidden = self.cell(x_t, hidden)
            clipped = hidden.norm(dim=-1)
            norms.append(clipped.cpu().numpy())  # expect: PP501 medium
        return hidden, norms


def part_ious(test_dataset, loader):
    seg_classes = test_dataset.seg_classes
    for points, cls in loader:
        points = points.cuda()
        for b in range(len(cls)):
            print(seg_classes[int(cls[b])], points.shape)


def to_images(model, loader):
    images = []
    for x in loader:
        output = model.current_visuals(x)
        for i in range(output.shape[0]):
            images.append(output[i, ...].clamp_(0, 1).numpy())
    return images


def log_lengths(loader, writer):
    for mels, lengths in loader:
        mels, lengths = mels.cuda(), lengths.cuda()
        for k in range(len(lengths)):
            writer.add_scalar(f"length/{k}", int(lengths[k].item()), mels.size(-1))
            if k >= 5:
                break
