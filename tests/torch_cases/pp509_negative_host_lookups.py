"""Twins of pp509_positive_host_lookups.py that stay silent: the indices are read once before the loop, the
container is a dict (a tensor key hashes by identity, no read), or the list is indexed by the loop's own counter."""

import numpy as np
import torch


def per_category_iou(model, loader, num_parts):
    iou_per_cat = np.zeros(16).astype(np.float32)
    with torch.no_grad():
        for points, label, target in loader:
            points, label, target = points.cuda(), label.squeeze(1).cuda(), target.cuda()
            pred = model(points)
            shape_ious = pred.argmax(-1).eq(target).float().mean(-1).tolist()
            labels = label.tolist()
            for k in range(pred.size(0)):
                iou_per_cat[labels[k]] += shape_ious[k]
    return iou_per_cat


def weights_by_label(model, loader, device):
    weights = {c: 1.0 for c in range(16)}
    picked = []
    for images, label in loader:
        images, label = images.to(device), label.to(device)
        scores = model(images)  # expect: PP503
        for k in range(scores.size(0)):
            picked.append(weights[label[k]])
    return picked


def names_by_position(model, loader, device, class_names):
    names = list(class_names)
    shown = []
    for images, _label in loader:
        images = images.to(device)
        scores = model(images)  # expect: PP503
        for k in range(scores.size(0)):
            shown.append(names[k])
    return shown
