"""A GAN loop whose outer loop is a generator step holding the critic's inner step loop: noise drawn on
the host and moved in both."""

import torch


def train(net_G, net_D, loss_fn, optim_G, optim_D, looper, total_steps, n_dis, batch, z_dim, device):
    for _step in range(total_steps):
        for _ in range(n_dis):
            with torch.no_grad():
                z = torch.randn(batch, z_dim).to(device)  # expect: PP506 high
                fake = net_G(z).detach()
            real = next(looper).to(device)
            loss = loss_fn(net_D(real), net_D(fake))
            optim_D.zero_grad()
            loss.backward()
            optim_D.step()
        z = torch.randn(batch * 2, z_dim).to(device)  # expect: PP506 high
        loss = loss_fn(net_D(net_G(z)))
        optim_G.zero_grad()
        loss.backward()
        optim_G.step()
