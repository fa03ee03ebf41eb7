import torch
import torch.nn as nn
import torchvision.utils as vutils

device = torch.device("cuda")


def train(generator, discriminator, loader, d_optimizer, criterion, start_iter):
    for i, (images, _) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        fake = generator(torch.randn(images.size(0), 100, 1, 1, device=device))
        d_loss = criterion(discriminator(images), discriminator(fake.detach()))
        d_optimizer.zero_grad()
        d_loss.backward()
        d_optimizer.step()
        generator_iter = start_iter + i
        if (i + 1) % 100 == 0:  # a logging batch every 100 steps
            z = torch.rand((images.size(0), 100, 1, 1)).to(device)
            print(d_loss.item(), discriminator(generator(z)).mean().item())
        if generator_iter % 1000 == 0:  # samples for an image grid every 1000th step
            z = torch.randn(800, 100, 1, 1).to(device)
            vutils.save_image(generator(z).data.cpu()[:64], f"img_{generator_iter}.png")


class CW(nn.Module):
    """An attack: made once per call, then a step loop of many model passes."""

    def __init__(self, model, steps=1000, lr=0.01):
        super().__init__()
        self.model, self.steps, self.lr = model, steps, lr

    def forward(self, images, labels):
        w = images.clone().detach().requires_grad_(True)
        best_l2 = 1e10 * torch.ones(len(images)).to(images.device)
        optimizer = torch.optim.Adam([w], lr=self.lr)
        for _ in range(self.steps):
            adv = torch.tanh(w)
            l2 = (adv - images).pow(2).flatten(1).sum(1)
            loss = l2.sum() - nn.functional.cross_entropy(self.model(adv), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            best_l2 = torch.minimum(best_l2, l2.detach())
        return adv.detach()
