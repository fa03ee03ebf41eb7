"""Reads in the branch of a loss the run's options choose (style-based-gan): one branch runs every step."""

import torch
import torch.nn.functional as F
from torch.autograd import grad


def train(args, loader, generator, discriminator, g_optimizer, d_optimizer, code_size):
    for i, real_image in enumerate(loader):
        real_image = real_image.cuda()
        b_size = real_image.size(0)
        if args.loss == "wgan-gp":
            real_predict = discriminator(real_image).mean()
            (-real_predict).backward()
        elif args.loss == "r1":
            real_image.requires_grad = True
            real_scores = discriminator(real_image)
            real_predict = F.softplus(-real_scores).mean()
            real_predict.backward(retain_graph=True)
            grad_real = grad(outputs=real_scores.sum(), inputs=real_image, create_graph=True)[0]
            grad_penalty = 5 * (grad_real.view(b_size, -1).norm(2, dim=1) ** 2).mean()
            grad_penalty.backward()
            grad_loss_val = grad_penalty.item()  # expect: PP501
        d_optimizer.step()
        fake_image = generator(torch.randn(b_size, code_size, device="cuda"))
        g_optimizer.zero_grad()
        F.softplus(-discriminator(fake_image)).mean().backward()
        g_optimizer.step()
        if i % 100 == 0:
            print(grad_loss_val)
