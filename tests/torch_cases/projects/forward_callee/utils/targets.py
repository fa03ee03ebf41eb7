"""A YOLO layer's target builder: buffers made on the host and copied to the GPU on each call."""

import torch


def build_targets(target, n_anchors, n_h, n_w):
    n_b = len(target)
    tbox = torch.zeros(n_b, n_anchors, n_h, n_w, 4).cuda()  # expect: PP506
    tconf = torch.LongTensor(n_b, n_anchors, n_h, n_w).fill_(0).cuda()  # expect: PP506
    for b in range(n_b):
        tconf[b, 0, 0, 0] = len(target[b])
    return tconf, tbox


def build_targets_mined(target, n_anchors, n_h, n_w):
    tbox = torch.zeros(len(target), n_anchors, n_h, n_w, 4).cuda()
    return tbox
