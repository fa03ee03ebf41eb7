import torch
import torch.nn as nn
from utils import to_var


class GaussianMixtureModel(nn.Module):
    def __init__(self, n_gmm=2, latent_dim=3):
        super().__init__()
        self.estimation = nn.Sequential(nn.Linear(latent_dim, n_gmm), nn.Softmax(dim=1))

    def forward(self, z):
        return self.estimation(z)

    def compute_energy(self, z, mu, cov):
        k, d, _ = cov.size()
        eps = 1e-12
        energies = []
        for i in range(k):  # expect: PP509
            cov_k = cov[i] + to_var(eps * cov[i].new_ones(d).diag())
            diff = z - mu[i]
            energies.append((diff @ torch.inverse(cov_k) * diff).sum(dim=1))
        return torch.stack(energies, dim=1).min(dim=1)[0].mean()

    def loss_function(self, x, x_hat, z, mu, cov, lambda_energy):
        recon_error = torch.mean((x - x_hat) ** 2)
        sample_energy = self.compute_energy(z, mu, cov)
        return recon_error + lambda_energy * sample_energy
