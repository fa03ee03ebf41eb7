import commons
import torch


def train(hps, net_g, net_d, optim_g, optim_d, loader, writer):
    net_g, net_d = net_g.cuda(), net_d.cuda()
    for step, (x, y) in enumerate(loader):
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        y_hat = net_g(x)
        loss_disc = torch.mean((1 - net_d(y)) ** 2) + torch.mean(net_d(y_hat.detach()) ** 2)
        optim_d.zero_grad()
        loss_disc.backward()
        grad_norm_d = commons.clip_grad_value_(net_d.parameters(), None)  # expect: PP501
        optim_d.step()
        loss_gen = torch.mean((1 - net_d(y_hat)) ** 2)
        optim_g.zero_grad()
        loss_gen.backward()
        grad_norm_g = commons.clip_grad_value_(net_g.parameters(), None)
        optim_g.step()
        if step % hps.log_interval == 0:
            writer.add_scalar("grad_norm_d", grad_norm_d, step)
            writer.add_scalar("grad_norm_g", grad_norm_g, step)
