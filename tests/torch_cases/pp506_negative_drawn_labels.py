"""torch-fix44: labels drawn from the model's probabilities (already on the device) or from weights made
on the device: nothing made on the host crosses."""

import torch


def train(generator, discriminator, loader, g_optimizer, n_label, batch_size):
    weights = torch.ones(n_label, device="cuda")
    for real_image in loader:
        real_image = real_image.cuda()
        probs = discriminator.classify(real_image).softmax(-1)
        drawn = torch.multinomial(probs, 1).squeeze(1).cuda()
        uniform = torch.multinomial(weights, batch_size, replacement=True).cuda()
        loss = -discriminator(generator(drawn), uniform).mean()
        g_optimizer.zero_grad()
        loss.backward()
        g_optimizer.step()
