# ruff: noqa: UP031
"""PP501 (torch-fix67), clean twin of pp501_positive_appended_text.py: host numbers appended to the log
string every step, and the losses formatted into it only every N steps, wait for nothing on the other steps."""

import torch  # noqa: F401


def train(net_g, nets_d, optimizer_g, optimizers_d, loader, gen_loss, disc_loss, epochs):
    step = 0
    for epoch in range(epochs):
        for images, noise in loader:
            images, noise = images.cuda(), noise.cuda()
            fake_images = net_g(noise)
            d_logs = "epoch %d " % epoch
            for i in range(len(nets_d)):
                nets_d[i].zero_grad()
                err_d = disc_loss(nets_d[i], images[i], fake_images[i].detach())
                err_d.backward()
                optimizers_d[i].step()
                d_logs += "lrD%d: %g " % (i, optimizers_d[i].param_groups[0]["lr"])
                if step % 100 == 0:
                    d_logs += "errD%d: %.2f " % (i, err_d)
            net_g.zero_grad()
            err_g = gen_loss(nets_d, fake_images)
            err_g.backward()
            optimizer_g.step()
            step += 1
            if step % 100 == 0:
                print(d_logs + "errG: %.2f" % err_g)
