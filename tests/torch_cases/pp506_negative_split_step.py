# torch-fix92's clean twin: the split step's helper makes its labels like the predictions, on their device
import torch
import torch.nn as nn


class Trainer(nn.Module):
    def __init__(self, dis):
        super().__init__()
        self.dis = dis
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
            all0 = torch.zeros_like(out_a)
            all1 = torch.ones_like(out_b)
            loss_D = loss_D + nn.functional.binary_cross_entropy(torch.sigmoid(out_a), all0)
            loss_D = loss_D + nn.functional.binary_cross_entropy(torch.sigmoid(out_b), all1)
        loss_D.backward()
        return loss_D
