# ruff: noqa: UP031
"""PP502 (torch-fix67), the shapes hold-out 20 read wrong in ControlGAN's trainer: a discriminators' total
reset every step and summed over one update per network of a list (`for i in range(len(nets_d))`, each loss
after its own backward), and a log string that the KL term is %-formatted into, kept across steps (a `str`
holds no graph)."""

import torch


def train(net_g, nets_d, optimizer_g, optimizers_d, loader, gen_loss, disc_loss, epochs):
    step = 0
    g_logs = ""
    for _epoch in range(epochs):
        for images, noise in loader:
            images, noise = images.cuda(), noise.cuda()
            fake_images, mu, logvar = net_g(noise)
            err_d_total = 0
            for i in range(len(nets_d)):
                nets_d[i].zero_grad()
                err_d = disc_loss(nets_d[i], images[i], fake_images[i].detach())
                err_d.backward()
                optimizers_d[i].step()
                err_d_total += err_d
            net_g.zero_grad()
            kl_loss = torch.mean(mu.pow(2) + logvar.exp() - 1 - logvar) * 0.5
            err_g_total = gen_loss(nets_d, fake_images) + kl_loss
            err_g_total.backward()
            optimizer_g.step()
            step += 1
            if step % 500 == 0:
                g_logs += "kl_loss: %.2f " % kl_loss
                print(g_logs, err_d_total.item())
