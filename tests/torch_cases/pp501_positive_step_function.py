"""A GAN trainer class whose step methods a train.py of another module calls every iteration. The module
places the models on the GPU itself, so the reads are reported at high (torch-fix43; medium where the
module places nothing: pp501_positive_step_function_averaged.py)."""

import torch


class Trainer:
    def __init__(self, generator, discriminator, g_optimizer, d_optimizer, device="cuda"):
        self.generator = generator.to(device)
        self.discriminator = discriminator.to(device)
        self.g_optimizer, self.d_optimizer = g_optimizer, d_optimizer

    def generator_trainstep(self, y, z):
        self.g_optimizer.zero_grad()
        gloss = self.compute_loss(self.discriminator(self.generator(z, y), y), 1)
        gloss.backward()
        self.g_optimizer.step()
        return gloss.item()  # expect: PP501

    def discriminator_trainstep(self, x_real, y, z, reg_type):
        self.d_optimizer.zero_grad()
        dloss_real = self.compute_loss(self.discriminator(x_real, y), 1)
        if reg_type == "real":
            dloss_real.backward(retain_graph=True)
        else:
            dloss_real.backward()
        with torch.no_grad():
            x_fake = self.generator(z, y)
        dloss_fake = self.compute_loss(self.discriminator(x_fake, y), 0)
        dloss_fake.backward()
        self.d_optimizer.step()
        dloss = dloss_real + dloss_fake
        return dloss.item(), dloss_fake.item()  # expect: PP501

    def compute_loss(self, d_out, target):
        return torch.nn.functional.binary_cross_entropy_with_logits(d_out, torch.full_like(d_out, target))
