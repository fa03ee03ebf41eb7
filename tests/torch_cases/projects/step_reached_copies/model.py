import torch
import torch.nn as nn
from torch.autograd import Variable
from utils import overlap_and_add, var_cuda


class Base(nn.Module):
    def __init__(self, p=0.1):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.p = p

    def pad_segment(self, input, size):
        batch, dim, length = input.shape
        pad = Variable(torch.zeros(batch, dim, size)).type(input.type())  # expect: PP506
        return torch.cat([pad, input, pad], 2)

    def split_feature(self, input, size):
        return self.pad_segment(input, size)

    def forward(self, input):
        pass


class Separator(Base):
    def forward(self, input):
        input = self.split_feature(input, 4)

        def keep_mask(scores):
            rand = torch.rand(scores.size())
            return scores * var_cuda(rand > self.p).float()  # expect: PP506

        scores = keep_mask(self.lin(input))
        index = scores.device.index
        steps = torch.cuda.comm.broadcast(torch.arange(4.0), devices=[index])[0]  # expect: PP506
        return overlap_and_add(scores * steps, 2)
