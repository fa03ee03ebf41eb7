import torch
from noise_schedule import DiffusionSchedule, GaussianNoise, Latents


def train(model, loader, optimizer, device, steps=1000):
    noise_source = GaussianNoise()
    schedule = DiffusionSchedule(steps, 1e-4, 0.02, device)
    latents = Latents(128)
    for images in loader:
        images = images.to(device)
        noise = torch.randn_like(images)
        t = torch.randint(0, steps, (images.shape[0],), device=device)
        z = latents.draw_latents(images.shape[0], device) + noise_source.draw_noise(1).mean()
        loss = ((model(schedule.noisy(images, noise, t), t, z) - noise) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model(latents.grid_latents(64)), schedule.show_table(device)
