import torch
import torch.nn as nn

device = torch.device("cuda")


def train(model, loader, optimizer, criterion, use_cuda):
    for x, y in loader:
        if use_cuda:  # not a thinning guard: runs on every step
            hidden = torch.zeros(2, x.size(0), 256).to(device)  # expect: PP506 high
        out = model(x.to(device, non_blocking=True), hidden)
        loss = criterion(out, y.to(device, non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class FAB(nn.Module):
    def __init__(self, model, steps=10):
        super().__init__()
        self.model, self.steps = model, steps

    def logit_grads(self, images):
        im = images.clone().requires_grad_()
        y = self.model(im)
        g2 = torch.zeros([y.shape[-1], *images.size()]).to(images.device)  # expect: PP506 high
        for counter in range(y.shape[-1]):
            y[:, counter].sum().backward(retain_graph=True)
            g2[counter] = im.grad.data
        return y.detach(), g2

    def forward(self, images, labels):
        adv = images.clone()
        for _ in range(self.steps):  # the helper runs on every step of the attack
            y, g2 = self.logit_grads(adv)
            adv = (adv - 0.01 * g2[labels].sign()).clamp(0, 1)
        return adv
