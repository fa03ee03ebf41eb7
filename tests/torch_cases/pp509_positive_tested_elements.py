# the MAC network's validation (hold-out 49): `correct` is a device bool tensor and the loop takes it one
# 0-d element at a time; `if c:` reads each to the host
from collections import Counter

import torch


def valid(net, dataset, device):
    family_correct = Counter()
    family_total = Counter()
    with torch.no_grad():
        for image, question, q_len, answer, family in dataset:
            image, question = image.to(device), question.to(device)
            output = net(image, question, q_len)
            correct = output.detach().argmax(1) == answer.to(device)
            for c, fam in zip(correct, family, strict=False):
                if c:  # expect: PP509
                    family_correct[fam] += 1
                family_total[fam] += 1
    return family_correct, family_total
