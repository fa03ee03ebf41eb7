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
