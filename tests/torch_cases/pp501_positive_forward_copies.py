"""PP501 (torch-fix123): a host copy of a device value in a model's `forward`, or in a def the forward calls
outside its ifs, on every training call. RSC's ImageNet ResNet copies its channel mask to the host in the
training branch of every forward (`mask_all_cuda.detach().cpu().numpy()`); a spiking network adds each
layer's firing rate as a NumPy mean on every forward; a histogram loss copies its index mask for each
histogram. Each copy waits for the GPU on every step, wherever the training loop is: `medium`."""

import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda")


class ResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 1000)

    def forward(self, x, epoch=0):
        if self.training:
            spatial_mean = x.mean(1)
            th = torch.sort(spatial_mean, dim=1, descending=True)[0][:, 8:9]
            mask_all_cuda = torch.where(
                spatial_mean > th, torch.zeros_like(spatial_mean), torch.ones_like(spatial_mean)
            )
            mask_all = mask_all_cuda.detach().cpu().numpy()  # expect: PP501 medium
            x = x * torch.from_numpy(np.ascontiguousarray(mask_all)).to(device).unsqueeze(1)
        return self.fc(x.flatten(1))


class SnnNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3)
        self.fr_conv1 = 0

    def forward(self, x):
        spk_conv1 = (self.conv1(x) > 0).float()
        self.fr_conv1 = self.fr_conv1 + spk_conv1.detach().cpu().numpy().mean()  # expect: PP501 medium
        return spk_conv1


class HistogramLoss(nn.Module):
    def __init__(self, nbins=51):
        super().__init__()
        self.nbins = nbins

    def forward(self, batch, labels):
        sim = batch.mm(batch.T)
        pos = labels.view(-1, 1) == labels.view(1, -1)
        return self.histogram(sim, pos) - self.histogram(sim, ~pos)

    def histogram(self, sim, idxs):
        usr = sim.clone()
        inds = torch.tensor(idxs.detach().cpu().numpy())  # expect: PP501 medium
        usr[~inds] = 0
        return usr.sum()


def build():
    """The models are placed here and trained by a script of another module (out of sight)."""
    return ResNet().to(device), SnnNetwork().to(device), HistogramLoss()
