import torch


def build_mask(n):
    mask = torch.ones(n, n).cuda()
    return mask
