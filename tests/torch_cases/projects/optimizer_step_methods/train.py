import torch
from models.gan_model import GANModel


def train(net_g, net_d, loader, epochs):
    model = GANModel(net_g.cuda(), net_d.cuda())
    for _ in range(epochs):
        for real in loader:
            real = real.cuda()
            model.set_input(real, torch.randn(real.size(0), 128, device="cuda"))
            model.optimize_parameters()
