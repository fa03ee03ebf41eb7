# ruff: noqa: UP031
"""PP501 (torch-fix67): a device loss formatted into a piece of text appended to a log string (`D_logs +=
'errD%d: %.2f ' % (i, errD)`, printed every 100 steps: ControlGAN's trainer, hold-out 20) is turned into
digits on the host on every step, like a text bound by `=`. The log string holds no graph (no PP502)."""

import torch


def kl_loss_of(mu, logvar):
    return torch.mean(mu.pow(2) + logvar.exp() - 1 - logvar) * 0.5


def train(net_g, nets_d, optimizer_g, optimizers_d, loader, gen_loss, disc_loss, epochs):
    step = 0
    for _epoch in range(epochs):
        for images, noise in loader:
            images, noise = images.cuda(), noise.cuda()
            fake_images, mu, logvar = net_g(noise)
            d_logs = ""
            for i in range(len(nets_d)):
                nets_d[i].zero_grad()
                err_d = disc_loss(nets_d[i], images[i], fake_images[i].detach())
                err_d.backward()
                optimizers_d[i].step()
                d_logs += "errD%d: %.2f " % (i, err_d)  # expect: PP501 high
            net_g.zero_grad()
            err_g_total, g_logs = gen_loss(nets_d, fake_images)
            kl_loss = kl_loss_of(mu, logvar)
            err_g_total += kl_loss
            g_logs += "kl_loss: %.2f " % kl_loss  # expect: PP501 high
            err_g_total.backward()
            optimizer_g.step()
            step += 1
            if step % 100 == 0:
                print(d_logs + "\n" + g_logs)
