"""The same shapes made on the device: a def that passes `device=`, and a product of two tensors that are
already there."""

import torch


class Diffusion:
    def __init__(self, steps, device):
        self.steps = steps
        self.device = device

    def draw_timesteps(self, n):
        return torch.randint(low=1, high=self.steps, size=(n,), device=self.device)

    def generate(self, model, n):
        x = torch.randn((n, 3, 32, 32), device=self.device)
        ones = torch.ones(n, device=self.device)
        for i in reversed(range(1, self.steps)):
            t = (ones * i).long().to(self.device)
            x = x - model(x, t)
        return x


def train(model, loader, optimizer, diffusion, device):
    for images, _ in loader:
        images = images.to(device)
        t = diffusion.draw_timesteps(images.shape[0]).to(device)
        loss = (model(images, t) - images).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
