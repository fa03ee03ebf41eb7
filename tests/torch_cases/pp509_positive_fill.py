"""A device tensor written one element at a time in a Python loop (hold-out 3 misses)."""

import torch


def rotation_loss(critic_rot_logits, batch_size, criterion):
    labels = torch.zeros(4 * batch_size).cuda()  # expect: PP506 high
    for i in range(4 * batch_size):  # expect: PP509 low
        if i < batch_size:
            labels[i] = 0
        elif i < 2 * batch_size:
            labels[i] = 1
        else:
            labels[i] = 2
    return criterion(critic_rot_logits, labels.long())


def to_weights(init_weight, rows, cols):
    weight = torch.ones(rows, cols).cuda()
    for i in range(rows):
        for j in range(cols):  # expect: PP509 low
            weight[i, j] = init_weight[i][j].item()
    return weight
