"""PP501 (torch-fix65), clean twin of pp501_positive_taking_turns.py: a step def called under a periodic or
optional `if` (one that counts nothing down) is not on every step, and a loop that alternates step defs
which return detached tensors reads nothing."""

import torch  # noqa: F401


def discriminator_step(batch, generator, discriminator, d_loss_fn, optimizer_d):
    real, noise = [t.cuda() for t in batch]
    loss = d_loss_fn(discriminator(real), discriminator(generator(noise).detach()))
    optimizer_d.zero_grad()
    loss.backward()
    optimizer_d.step()
    return {"D_loss": loss.detach()}


def generator_step(batch, generator, discriminator, g_loss_fn, optimizer_g):
    _, noise = [t.cuda() for t in batch]
    loss = g_loss_fn(discriminator(generator(noise)))
    optimizer_g.zero_grad()
    loss.backward()
    optimizer_g.step()
    return {"G_loss": loss.item()}


def train(loader, generator, discriminator, d_loss_fn, g_loss_fn, optimizer_d, optimizer_g, d_steps):
    generator.cuda()
    discriminator.cuda()
    d_steps_left = d_steps
    for step, batch in enumerate(loader):
        if d_steps_left > 0:
            losses_d = discriminator_step(batch, generator, discriminator, d_loss_fn, optimizer_d)
            d_steps_left -= 1
        elif step % 100 == 0:
            losses_g = generator_step(batch, generator, discriminator, g_loss_fn, optimizer_g)
        d_steps_left = d_steps
        print(losses_d, losses_g)
