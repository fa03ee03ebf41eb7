"""A batch maker that still writes the 0.3-era flag: `volatile=` once made evaluation batches graph-free."""

import torch
from torch.autograd import Variable


def get_batch(source, i, size, evaluation=False):
    x = torch.LongTensor(source["src"][i : i + size]).cuda()
    y = torch.LongTensor(source["label"][i : i + size]).cuda()
    return Variable(x, volatile=evaluation), Variable(y)
