"""torch-fix44 (tuned on hold-out 13): progressive-gan's conditional generator step draws its class labels
with `torch.multinomial` from `torch.ones(n_label)` made on the host, then copies them to the GPU on every
step (the bench credits the line of the factory, named in the message, when the expression spans lines)."""

import torch
from torch.autograd import Variable


def train(generator, discriminator, loader, g_optimizer, n_label, batch_size, code_size):
    for real_image, label in loader:
        real_image = real_image.cuda()
        input_class = Variable(  # expect: PP506 high
            torch.multinomial(torch.ones(n_label), batch_size, replacement=True)
        ).cuda()
        z = torch.randn(batch_size, code_size, device="cuda")
        predict = discriminator(generator(z, input_class), label.cuda())
        loss = -predict.mean() + discriminator(real_image, label.cuda()).mean()
        g_optimizer.zero_grad()
        loss.backward()
        g_optimizer.step()
