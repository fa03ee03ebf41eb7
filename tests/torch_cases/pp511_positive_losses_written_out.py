"""A GAN step's shape: the discriminator's and the generator's losses, built apart (the fakes detached for the
discriminator), each backpropagated with its own optimizer in a loop over the pair, keeping every graph."""

import torch


def train(gen, dis, loader, opt_gen, opt_dis):
    for x, _ in loader:
        x = x.cuda()
        fake = gen(torch.randn(x.size(0), 64, device=x.device))
        loss_gen = -dis(fake).mean()
        loss_dis = dis(fake.detach()).mean() - dis(x).mean()
        for opt, loss in zip([opt_dis, opt_gen], [loss_dis, loss_gen], strict=True):
            opt.zero_grad()
            loss.backward(retain_graph=True)  # expect: PP511 low
            opt.step()
