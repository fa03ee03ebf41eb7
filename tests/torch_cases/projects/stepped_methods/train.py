import torch
from noise_schedule import DiffusionSchedule


def train_diffusion(model, loader, optimizer, device, steps=1000):
    schedule = DiffusionSchedule(steps, 1e-4, 0.02)
    for images in loader:
        images = images.to(device)
        noise = torch.randn_like(images)
        t = torch.randint(0, steps, (images.shape[0],), device=device)
        loss = ((model(schedule.noisy(images, noise, t), t) - noise) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_gan(model, loader, critic_opt, batch_size, rounds=5):
    for x in loader:
        x = x.cuda()
        for _ in range(rounds):
            critic_opt.zero_grad()
            z = model.draw_latents(batch_size)
            g = model.generator(z)
            loss = model.critic_loss(x, z) + model.penalty_term(x, g.detach())
            loss.backward()
            critic_opt.step()
