"""Host tensors filled element by element: set-up once, or a demonstration of a slow loop timed on purpose."""

from time import time

import torch


def class_column(class_num):
    column = torch.zeros((class_num, 1))
    for i in range(class_num):
        column[i, 0] = i
    return column


def timed(a, b, n):
    start = time()
    c = torch.zeros(n)
    for i in range(n):
        c[i] = a[i] + b[i]
    return c, time() - start


def polynomial(features, degree):
    rows = torch.zeros(degree, features.numel()).cuda()
    for i in range(1, degree):
        rows[i] = torch.pow(features, i)  # a whole row per step
    return rows
