# hold-out 8's MUNIT trainer: the update methods step optimizers named `gen_opt`/`dis_opt` (a name that
# ends in `_opt`), and a train.py of another module calls them every iteration; the style codes are drawn
# on the CPU and copied to the GPU on every call. `sample()` steps no optimizer and is not reported.
import torch
import torch.nn as nn
from torch.autograd import Variable


class MUNITTrainer(nn.Module):
    def __init__(self, gen_a, gen_b, dis_a, dis_b, style_dim=8):
        super().__init__()
        self.gen_a, self.gen_b, self.dis_a, self.dis_b = gen_a, gen_b, dis_a, dis_b
        self.style_dim = style_dim
        params = list(gen_a.parameters()) + list(gen_b.parameters())
        self.gen_opt = torch.optim.Adam(params, lr=1e-4)
        self.dis_opt = torch.optim.Adam(list(dis_a.parameters()) + list(dis_b.parameters()), lr=1e-4)

    def gen_update(self, x_a, x_b):
        self.gen_opt.zero_grad()
        s_a = Variable(torch.randn(x_a.size(0), self.style_dim, 1, 1).cuda())  # expect: PP506 high
        c_b, _ = self.gen_b.encode(x_b)
        x_ba = self.gen_a.decode(c_b, s_a)
        loss = self.dis_a.calc_gen_loss(x_ba)
        loss.backward()
        self.gen_opt.step()

    def dis_update(self, x_a, x_b):
        self.dis_opt.zero_grad()
        s_b = Variable(torch.randn(x_b.size(0), self.style_dim, 1, 1).cuda())  # expect: PP506 high
        c_a, _ = self.gen_a.encode(x_a)
        x_ab = self.gen_b.decode(c_a, s_b)
        loss = self.dis_b.calc_dis_loss(x_ab.detach(), x_b)
        loss.backward()
        self.dis_opt.step()

    def sample(self, x_a):
        s_b = Variable(torch.randn(x_a.size(0), self.style_dim, 1, 1).cuda())
        c_a, _ = self.gen_a.encode(x_a)
        return self.gen_b.decode(c_a, s_b)
