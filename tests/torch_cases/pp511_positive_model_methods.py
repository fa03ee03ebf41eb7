import torch
import torch.nn as nn


class BaseModel:
    def set_requires_grad(self, net, flag):
        for p in net.parameters():
            p.requires_grad = flag


class DoveNetModel(BaseModel):
    def __init__(self, opt, netG, netD):
        self.opt = opt
        self.device = torch.device("cuda")
        self.netG = netG.to(self.device)
        self.netD = netD.to(self.device)
        self.criterionGAN = nn.MSELoss()
        self.criterionL1 = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr)
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt.lr)

    def set_input(self, input):
        self.comp = input["comp"].to(self.device)
        self.real = input["real"].to(self.device)
        self.mask = input["mask"].to(self.device)

    def forward(self):
        self.output = self.netG(self.comp)
        self.harmonized = self.output

    def backward_D(self):
        fake_AB = self.harmonized
        pred_fake = self.netD(fake_AB.detach(), self.mask)
        pred_real = self.netD(self.real, self.mask)
        self.loss_D_fake = self.criterionGAN(pred_fake, torch.zeros_like(pred_fake))
        self.loss_D_real = self.criterionGAN(pred_real, torch.ones_like(pred_real))
        self.loss_D = self.loss_D_fake + self.loss_D_real
        self.loss_D.backward(retain_graph=True)  # expect: PP511 medium

    def backward_G(self):
        pred_fake = self.netD(self.harmonized, self.mask)
        self.loss_G_GAN = self.criterionGAN(pred_fake, torch.ones_like(pred_fake))
        self.loss_G_L1 = self.criterionL1(self.output, self.real) * self.opt.lambda_L1
        self.loss_G = self.loss_G_GAN + self.loss_G_L1
        self.loss_G.backward(retain_graph=True)  # expect: PP511 medium

    def optimize_parameters(self):
        self.forward()
        self.set_requires_grad(self.netD, True)
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()
        self.set_requires_grad(self.netD, False)
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()
