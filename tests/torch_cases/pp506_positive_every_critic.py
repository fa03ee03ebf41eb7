"""A GAN tutorial's generator step under `if step % n_critic == 0:` with `n_critic = 1`: the test holds
on every step, so the noise made on the host is copied on every step."""

import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n_noise = 100
n_critic = 1  # for training more k steps about Discriminator


def train(G, D, data_loader, criterion, D_opt, G_opt, max_epoch, batch_size):
    D_labels = torch.ones(batch_size, 1, device=DEVICE)
    D_fakes = torch.zeros(batch_size, 1, device=DEVICE)
    step = 0
    for _epoch in range(max_epoch):
        for images, _labels in data_loader:
            x = images.to(DEVICE)
            D_x_loss = criterion(D(x), D_labels)
            z = torch.randn(batch_size, n_noise, device=DEVICE)
            D_z_loss = criterion(D(G(z)), D_fakes)
            D_loss = D_x_loss + D_z_loss
            D.zero_grad()
            D_loss.backward()
            D_opt.step()
            if step % n_critic == 0:
                z = torch.randn(batch_size, n_noise).to(DEVICE)  # expect: PP506 high
                G_loss = criterion(D(G(z)), D_labels)
                G.zero_grad()
                G_loss.backward()
                G_opt.step()
            step += 1
