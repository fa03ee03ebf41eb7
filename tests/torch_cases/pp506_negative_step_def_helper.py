"""The same helper run from the training step only every N steps (a sample grid for the log), and from a
generation method: not per step."""

import torch
import torch.nn.functional as F


class BaseGAN:
    def __init__(self, netD, netG, noise_dim, device):
        self.netD = netD.to(device)
        self.netG = netG.to(device)
        self.noise_dim = noise_dim
        self.device = device
        self.step = 0
        self.optimizerD = torch.optim.Adam(self.netD.parameters(), lr=1e-3)
        self.optimizerG = torch.optim.Adam(self.netG.parameters(), lr=1e-3)

    def buildNoiseData(self, n_samples):
        return torch.randn(n_samples, self.noise_dim).to(self.device)

    def generate(self, n_samples):
        with torch.no_grad():
            return self.netG(self.buildNoiseData(n_samples))

    def optimizeParameters(self, input_batch):
        real = input_batch.to(self.device)
        n_samples = real.size(0)
        self.optimizerD.zero_grad()
        fake = self.netG(torch.randn(n_samples, self.noise_dim, device=self.device)).detach()
        lossD = F.softplus(self.netD(fake)).mean() + F.softplus(-self.netD(real)).mean()
        lossD.backward()
        self.optimizerD.step()
        self.optimizerG.zero_grad()
        z = torch.randn(n_samples, self.noise_dim, device=self.device)
        lossG = F.softplus(-self.netD(self.netG(z))).mean()
        lossG.backward()
        self.optimizerG.step()
        self.step += 1
        if self.step % 1000 == 0:
            self.samples = self.generate(64)
        return lossD.detach(), lossG.detach()
