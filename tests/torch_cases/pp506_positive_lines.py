"""Made on the CPU on one line and moved on a later one, every step (hold-out 2 and 3 misses)."""

import torch
from torch.autograd import Variable


def train_gan(generator, critic, loader, g_opt, c_opt, batch_size, penalty):
    for real, _ in loader:
        real = real.cuda()
        z = torch.rand((batch_size, 62))
        z = z.cuda()  # expect: PP506 high
        fake = generator(z)
        alpha = torch.rand((batch_size, 1, 1, 1))
        alpha = alpha.cuda()  # expect: PP506 high
        mixed = (alpha * real + (1 - alpha) * fake.detach()).requires_grad_(True)
        loss = critic(fake.detach()).mean() - critic(real).mean() + penalty(critic, mixed)
        c_opt.zero_grad()
        loss.backward()
        c_opt.step()
        noise = torch.randn((batch_size, 100, 1, 1))
        noise = Variable(noise).cuda()  # expect: PP506 high
        g_loss = -critic(generator(noise)).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()
