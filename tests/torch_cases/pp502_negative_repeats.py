"""MelGAN's shape: a discriminator total reset each step and summed over a few repeated updates, each
after its own backward."""

import torch


def train(model_g, model_d, optim_g, optim_d, loader, hp):
    for mel, audio in loader:
        mel, audio = mel.cuda(), audio.cuda()
        fake_audio = model_g(mel).detach()
        loss_d_sum = 0.0
        for _ in range(hp.train.rep_discriminator):
            optim_d.zero_grad()
            loss_d = torch.mean((model_d(audio) - 1.0) ** 2) + torch.mean(model_d(fake_audio) ** 2)
            loss_d.backward()
            optim_d.step()
            loss_d_sum += loss_d
        loss_d_avg = loss_d_sum / hp.train.rep_discriminator
        print(loss_d_avg)
