import numpy as np
import torch
import torch.nn as nn


def domain_adversary(features, critic):
    out = critic(features)
    half = features.size(0) // 2
    target = torch.from_numpy(np.array([[1]] * half + [[0]] * half)).float().cuda()  # expect: PP506
    return nn.functional.binary_cross_entropy_with_logits(out, target)
