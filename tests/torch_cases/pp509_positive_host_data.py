"""Twins of pp509_negative_host_data.py that still read a device tensor's rows one at a time (torch-fix87): a
loop over a batch's rows in a def that collates nothing, `int()` of a row's value
rather than its size, a loop over a batch's rows that indexes no dict, and a group-by over the classes present
in a batch (reported at `low`)."""

import numpy as np
import torch


def graph_batch(atoms, bonds):
    out = torch.zeros(atoms.size(0), device=atoms.device)
    for j in range(atoms.size(0)):  # expect: PP509 low
        out[j] = atoms[j] * bonds[j]
    return out


def per_video_sizes(model, clips, n, k, device):
    sizes = []
    for clip in clips:
        output = model(clip.to(device))
        for vid in output.view(n, -1, k):
            side = int(np.sqrt(vid.sum()))  # expect: PP509
            sizes.append(side)
    return sizes


def collect_features(model, loader, device, features):
    model.eval()
    with torch.no_grad():
        for inputs, labels in loader:
            inputs, labels = inputs.to(device), labels.to(device)
            query = model(inputs)
            for class_idx in labels.unique():
                features[int(class_idx)].append(query[labels == class_idx])  # expect: PP509 low
    return features


def align_prototypes(model, loader, prototypes, optimizer, criterion, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        features = model(x)
        loss = 0
        for label in y.unique():
            key = label.item()  # expect: PP509  # expect: PP501
            loss += criterion(features[y == label], prototypes[key])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
