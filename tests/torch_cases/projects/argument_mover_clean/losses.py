import torch
import torch.nn as nn


def domain_adversary(features, critic):
    out = critic(features)
    half = features.size(0) // 2
    target = torch.cat((torch.ones(half, 1, device=out.device), torch.zeros(half, 1, device=out.device)))
    return nn.functional.binary_cross_entropy_with_logits(out, target)
