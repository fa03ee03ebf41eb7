"""PP501 (torch-fix65): a GAN loop that alternates discriminator and generator steps by counters
(`if d_steps_left > 0: ... d_steps_left -= 1 elif g_steps_left > 0: ... g_steps_left -= 1`) runs one of the
two step defs on every pass; their `.item()` reads wait for the GPU on every step they take."""

import torch  # noqa: F401


def discriminator_step(batch, generator, discriminator, d_loss_fn, optimizer_d):
    batch = [t.cuda() for t in batch]
    real, noise = batch
    fake = generator(noise)
    loss = d_loss_fn(discriminator(real), discriminator(fake.detach()))
    losses = {"D_loss": loss.item()}  # expect: PP501 high
    optimizer_d.zero_grad()
    loss.backward()
    optimizer_d.step()
    return losses


def generator_step(batch, generator, discriminator, g_loss_fn, optimizer_g):
    batch = [t.cuda() for t in batch]
    _, noise = batch
    loss = g_loss_fn(discriminator(generator(noise)))
    losses = {"G_loss": loss.item()}
    optimizer_g.zero_grad()
    loss.backward()
    optimizer_g.step()
    return losses


def train(loader, generator, discriminator, d_loss_fn, g_loss_fn, optimizer_d, optimizer_g, d_steps, g_steps):
    generator.cuda()
    discriminator.cuda()
    d_steps_left, g_steps_left = d_steps, g_steps
    for batch in loader:
        if d_steps_left > 0:
            losses_d = discriminator_step(batch, generator, discriminator, d_loss_fn, optimizer_d)
            d_steps_left -= 1
        elif g_steps_left > 0:
            losses_g = generator_step(batch, generator, discriminator, g_loss_fn, optimizer_g)
            g_steps_left -= 1
        if d_steps_left > 0 or g_steps_left > 0:
            continue
        d_steps_left, g_steps_left = d_steps, g_steps
        print(losses_d, losses_g)
