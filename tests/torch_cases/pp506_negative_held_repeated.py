"""(torch-fix53) Near misses of `pp506_positive_held_repeated.py`: a buffer repeated to the batch (it moves with
the module), a comparison with a tensor of the step (a device tensor there would not compare with a host
one: this is host data of the step, copied as it must be), a helper that moves its argument only when
told to (`need_cuda=False` by default) or returns something else, and a helper given the step's data."""

import torch
import torch.nn as nn
from torch.autograd import Variable


def maybe_cuda(t, need_cuda=False):
    inp = Variable(t)
    if need_cuda:
        inp = inp.cuda()
    return inp


def moved_copy(t):
    out = t.cuda()
    print(out.shape)
    return t


class PlanarGuidance(nn.Module):
    def __init__(self, upratio):
        super().__init__()
        self.upratio = upratio
        self.register_buffer("u", torch.arange(upratio).reshape([1, 1, upratio]).float())

    def forward(self, plane, focal):
        b, h, w = plane.size(0), plane.size(2), plane.size(3)
        u = self.u.repeat(b, h * self.upratio, w).cuda()
        return plane[:, 0] * u + focal


class LengthMask(nn.Module):
    def forward(self, prediction, lengths):
        cand_len = prediction.size(1)
        mask = (torch.arange(cand_len).unsqueeze(0) < lengths.unsqueeze(1)).to(prediction.device)
        return (prediction * mask).sum()


class TagLoss(nn.Module):
    def forward(self, tags, joints):
        empty = maybe_cuda(torch.zeros(1).float())
        other = moved_copy(torch.zeros(1).float())
        return tags.mean() + empty + other
