import mix
import torch
from mix import mixup_data, position_grid
from training_utils import calc_gradient_penalty, gen_noise_on, gen_rand_noise, load_batch


def train(aG, aD, loader, optimizer_g, optimizer_d, images, device, iters):
    torch.backends.cudnn.benchmark = True
    for step in range(iters):
        real = next(loader).to(device, non_blocking=True)
        noise = gen_rand_noise(real.size(0)).to(device)  # expect: PP506
        fake = aG(noise)
        loss_d = aD(fake.detach()).mean() - aD(real).mean()
        loss_d = loss_d + calc_gradient_penalty(aD, real, fake.detach(), device)
        optimizer_d.zero_grad()
        loss_d.backward()
        optimizer_d.step()
        noise = gen_noise_on(real.size(0), device)
        more = load_batch(images, list(range(step, step + 8))).to(device)
        loss_g = -aD(aG(noise)).mean() + aD(more).mean()
        optimizer_g.zero_grad()
        loss_g.backward()
        optimizer_g.step()
        if step % 1000 == 0:
            mix.sample_images(aG, 64)
        evaluate_noise(step)
    fixed = gen_rand_noise(64).to(device)
    return aG(fixed)


def evaluate_noise(n):
    return torch.randn(n, 8, device="cuda").mean()


class Trainer:
    def __init__(self, G, D, g_opt, d_opt):
        self.G, self.D, self.g_opt, self.d_opt = G, D, g_opt, d_opt

    def sample_generator(self, num_samples):
        latent = self.G.sample_latent(num_samples).cuda()  # expect: PP506
        return self.G(latent)

    def train(self, data_loader, epochs):
        for _ in range(epochs):
            for data, labels in data_loader:
                fake = self.sample_generator(data.size(0))
                mixed, _, _, _ = mixup_data(data.cuda(), labels.cuda())
                loss = self.D(fake).mean() - self.D(mixed).mean()
                self.d_opt.zero_grad()
                loss.backward()
                self.d_opt.step()
        return position_grid(8)
