# torch-fix92: a training step split in two (the optimizer step in `update_D`, the backward in the
# `backward_D` it calls), whose helper makes a multi-scale discriminator's labels on the CPU every step
import torch
import torch.nn as nn


class Trainer(nn.Module):
    def __init__(self, dis, gpu=0):
        super().__init__()
        self.dis = dis
        self.gpu = gpu
        self.dis_opt = torch.optim.Adam(self.dis.parameters(), lr=1e-4)

    def update_D(self, real, fake):
        self.dis_opt.zero_grad()
        loss = self.backward_D(real, fake)
        self.dis_opt.step()
        return loss

    def backward_D(self, real, fake):
        pred_fake = self.dis(fake.detach())
        pred_real = self.dis(real)
        loss_D = 0
        for out_a, out_b in zip(pred_fake, pred_real, strict=True):
            all0 = torch.zeros(out_a.size(0)).cuda(self.gpu)  # expect: PP506 high
            all1 = torch.ones(out_b.size(0)).cuda(self.gpu)  # expect: PP506 high
            loss_D = loss_D + nn.functional.binary_cross_entropy(torch.sigmoid(out_a), all0)
            loss_D = loss_D + nn.functional.binary_cross_entropy(torch.sigmoid(out_b), all1)
        loss_D.backward()
        return loss_D
