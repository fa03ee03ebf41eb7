"""CPU tensors made by a def of the module or inside an expression and then moved, every step (hold-out 4:
a diffusion model's timestep sampler, a sampler's timestep tensor)."""

import torch


class Diffusion:
    def __init__(self, steps, device):
        self.steps = steps
        self.device = device

    def draw_timesteps(self, n):
        return torch.randint(low=1, high=self.steps, size=(n,))

    def generate(self, model, n):
        x = torch.randn((n, 3, 32, 32), device=self.device)
        for i in reversed(range(1, self.steps)):
            t = (torch.ones(n) * i).long().to(self.device)  # expect: PP506 high
            x = x - model(x, t)
        return x


def train(model, loader, optimizer, diffusion, device):
    for images, _ in loader:
        images = images.to(device)
        t = diffusion.draw_timesteps(images.shape[0]).to(device)  # expect: PP506 high
        loss = (model(images, t) - images).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
