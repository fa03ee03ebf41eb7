# element tests over host values: a list of booleans, NumPy predictions, and a device tensor tested once
# after the loop (no loop that runs a model around it)
from collections import Counter

import torch


@torch.no_grad()
def valid(net, dataset, device):
    family_correct = Counter()
    for image, answer, family in dataset:
        output = net(image.to(device))
        correct = (output.argmax(1).cpu() == answer).tolist()
        for c, fam in zip(correct, family, strict=False):
            if c:
                family_correct[fam] += 1
        hits = output.argmax(1).cpu().numpy() == answer.numpy()
        for h in hits:
            if h:
                family_correct["all"] += 1
    return family_correct


def summary(outputs, answers):
    correct = torch.cat(outputs).cuda() == torch.cat(answers).cuda()
    n = 0
    for c in correct:
        if c:
            n += 1
    return n


@torch.no_grad()
def filter_pseudo_labels(model, converter, loader, device):
    """STR-Fewer-Labels' pseudo-label filter (hold-out 30): the converter decodes the device indices into
    strings; each string is tested, not a device element"""
    kept = []
    for image in loader:
        _, index = model(image.to(device)).max(2)
        texts = converter.decode(index, [index.size(1)] * index.size(0))
        for image_ul, text in zip(torch.unbind(image, dim=0), texts, strict=False):
            if "[PAD]" in text or "[UNK]" in text:
                continue
            if text == "[SOS]":
                continue
            kept.append((image_ul, text))
    return kept
