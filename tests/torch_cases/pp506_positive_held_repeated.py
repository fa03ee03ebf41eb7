"""(torch-fix53) A tensor `__init__` made on the host, repeated or reshaped to the batch on every forward and
then copied (`self.u.repeat(b, h, w).cuda()`, a depth decoder's planar-guidance offsets); a whole comparison
of a host factory moved at once (`(torch.arange(n).repeat(b, 1) < k).to(device)`, a ranking loss's
position masks); a copy that names the factory's line when the name was reshaped in between; and a helper
of the module that moves its argument (`make_input(torch.zeros(1))`).
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn
from torch.autograd import Variable


def make_input(t, requires_grad=False, need_cuda=True):
    inp = Variable(t, requires_grad=requires_grad)
    inp = inp.sum()
    if need_cuda:
        inp = inp.cuda()
    return inp


class PlanarGuidance(nn.Module):
    def __init__(self, upratio):
        super().__init__()
        self.upratio = upratio
        self.u = torch.arange(upratio).reshape([1, 1, upratio]).float()
        self.v = torch.arange(upratio).reshape([1, upratio, 1]).float()

    def forward(self, plane, focal):
        b, h, w = plane.size(0), plane.size(2), plane.size(3)
        u = self.u.repeat(b, h * self.upratio, w).cuda()  # expect: PP506
        v = self.v.repeat(b, h, w * self.upratio).float().cuda()  # expect: PP506
        return plane[:, 0] * u + plane[:, 1] * v + focal


class RankingLoss(nn.Module):
    def __init__(self, num_pos, device):
        super().__init__()
        self.num_pos = num_pos
        self.device = device

    def forward(self, prediction):
        b, n = prediction.size(0), prediction.size(1)
        pos_mask = (torch.arange(n).unsqueeze(0).repeat(b, 1) < self.num_pos).to(self.device)  # expect: PP506 high  # fmt: skip
        diff = prediction.unsqueeze(-1) - prediction.unsqueeze(-2)
        return -(diff * pos_mask.unsqueeze(-1)).sigmoid().log().mean()


class SetFunction(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, set_input):
        n, size, dim = set_input.shape
        mask_one = torch.ones(size, size) - torch.eye(size, size)
        mask_one = mask_one.view(1, size, size, 1)
        if torch.cuda.is_available():
            mask_one = mask_one.cuda()  # expect: PP506 high
        return self.proj((set_input.unsqueeze(1) * mask_one).sum(2))


class TagLoss(nn.Module):
    def single_tag_loss(self, pred_tag, joints):
        tags = [pred_tag[j[0]] for j in joints if j[1] > 0]
        if len(tags) == 0:
            return make_input(torch.zeros(1).float())  # expect: PP506
        tags = torch.stack(tags)
        return ((tags - tags.mean(0)) ** 2).mean()

    def forward(self, tags, joints):
        return torch.stack([self.single_tag_loss(t, j) for t, j in zip(tags, joints, strict=True)]).mean()
