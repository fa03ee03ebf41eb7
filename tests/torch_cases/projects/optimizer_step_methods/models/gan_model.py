import torch

from . import networks


class GANModel:
    def __init__(self, net_g, net_d):
        self.net_g, self.net_d = net_g, net_d
        self.optimizer_g = torch.optim.Adam(net_g.parameters())
        self.optimizer_d = torch.optim.Adam(net_d.parameters())

    def set_input(self, real, noise):
        self.real, self.noise = real, noise

    def backward_d(self):
        fake = self.net_g(self.noise).detach()
        penalty = networks.cal_gradient_penalty(self.net_d, self.real, fake, "cuda")
        loss = self.net_d(fake).mean() - self.net_d(self.real).mean() + 10 * penalty
        loss.backward()

    def backward_g(self):
        loss = -self.net_d(self.net_g(self.noise)).mean()
        loss.backward()

    def optimize_parameters(self):
        self.optimizer_d.zero_grad()
        self.backward_d()
        self.optimizer_d.step()
        self.optimizer_g.zero_grad()
        self.backward_g()
        self.optimizer_g.step()
