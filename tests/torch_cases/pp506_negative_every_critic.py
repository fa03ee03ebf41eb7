"""The generator step every `n_critic` steps where `n_critic` is 5, or a parameter (its default of 1 may
be overridden): not every step."""

import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n_noise = 100
n_critic = 5


def train(G, D, data_loader, criterion, D_opt, G_opt, max_epoch, batch_size):
    D_labels = torch.ones(batch_size, 1, device=DEVICE)
    step = 0
    for _epoch in range(max_epoch):
        for images, _labels in data_loader:
            D_loss = (
                -D(images.to(DEVICE)).mean() + D(G(torch.randn(batch_size, n_noise, device=DEVICE))).mean()
            )
            D.zero_grad()
            D_loss.backward()
            D_opt.step()
            if step % n_critic == 0:
                z = torch.randn(batch_size, n_noise).to(DEVICE)
                G_loss = criterion(D(G(z)), D_labels)
                G.zero_grad()
                G_loss.backward()
                G_opt.step()
            step += 1


def train_wgan(G, D, data_loader, D_opt, G_opt, batch_size, critic_rounds=1):
    for step, (images, _labels) in enumerate(data_loader):
        D_loss = -D(images.to(DEVICE)).mean() + D(G(torch.randn(batch_size, n_noise, device=DEVICE))).mean()
        D.zero_grad()
        D_loss.backward()
        D_opt.step()
        if step % critic_rounds == 0:
            z = torch.randn(batch_size, n_noise).to(DEVICE)
            G_loss = -D(G(z)).mean()
            G.zero_grad()
            G_loss.backward()
            G_opt.step()
