"""A GAN class whose training step (`optimizeParameters`: backward and optimizer steps, run by a trainer of
another module on every batch) draws its latent vectors through a helper of the class that makes them on
the CPU and moves them (GAN Zoo's `buildNoiseData`, hold-out 11)."""

import torch
import torch.nn.functional as F


class BaseGAN:
    def __init__(self, netD, netG, noise_dim, device):
        self.netD = netD.to(device)
        self.netG = netG.to(device)
        self.noise_dim = noise_dim
        self.device = device
        self.optimizerD = torch.optim.Adam(self.netD.parameters(), lr=1e-3)
        self.optimizerG = torch.optim.Adam(self.netG.parameters(), lr=1e-3)

    def buildNoiseData(self, n_samples):
        inputLatent = torch.randn(n_samples, self.noise_dim).to(self.device)  # expect: PP506
        return inputLatent

    def optimizeParameters(self, input_batch):
        real = input_batch.to(self.device)
        n_samples = real.size(0)
        self.optimizerD.zero_grad()
        fake = self.netG(self.buildNoiseData(n_samples)).detach()
        lossD = F.softplus(self.netD(fake)).mean() + F.softplus(-self.netD(real)).mean()
        lossD.backward()
        self.optimizerD.step()
        self.optimizerG.zero_grad()
        lossG = F.softplus(-self.netD(self.netG(self.buildNoiseData(n_samples)))).mean()
        lossG.backward()
        self.optimizerG.step()
        return lossD.detach(), lossG.detach()
