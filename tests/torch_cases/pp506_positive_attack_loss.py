"""An adversarial-training loss (TRADES) and a virtual-adversarial loss module (VAT): each runs a short
attack of its own, but the loss itself runs on every training step, so the starting noise drawn on the CPU
crosses to the GPU every step."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def trades_loss(model, x_natural, y, optimizer, step_size=0.003, epsilon=0.031, perturb_steps=10, beta=1.0):
    criterion_kl = nn.KLDivLoss(reduction="sum")  # expect: PP507 high
    model.eval()
    x_adv = x_natural.detach() + 0.001 * torch.randn(x_natural.shape).cuda().detach()  # expect: PP506 high
    for _ in range(perturb_steps):
        x_adv.requires_grad_()
        with torch.enable_grad():
            loss_kl = criterion_kl(F.log_softmax(model(x_adv), dim=1), F.softmax(model(x_natural), dim=1))
        grad = torch.autograd.grad(loss_kl, [x_adv])[0]
        x_adv = torch.min(
            torch.max(x_adv.detach() + step_size * torch.sign(grad), x_natural - epsilon), x_natural + epsilon
        )
    model.train()
    optimizer.zero_grad()
    logits = model(x_natural)
    robust = criterion_kl(F.log_softmax(model(x_adv.detach()), dim=1), F.softmax(logits, dim=1))
    return F.cross_entropy(logits, y) + beta * robust / len(x_natural)


class VATLoss(nn.Module):
    def __init__(self, xi=10.0, eps=1.0, ip=1):
        super().__init__()
        self.xi, self.eps, self.ip = xi, eps, ip

    def forward(self, model, x):
        with torch.no_grad():
            pred = F.softmax(model(x), dim=1)
        d = torch.rand(x.shape).sub(0.5).to(x.device)  # expect: PP506 high
        d = d / d.flatten(1).norm(dim=1).view(-1, *([1] * (x.dim() - 1)))
        for _ in range(self.ip):
            d.requires_grad_()
            adv_distance = F.kl_div(F.log_softmax(model(x + self.xi * d), dim=1), pred, reduction="batchmean")
            adv_distance.backward()
            d = d.grad / d.grad.flatten(1).norm(dim=1).view(-1, *([1] * (x.dim() - 1)))
            model.zero_grad()
        return F.kl_div(F.log_softmax(model(x + d * self.eps), dim=1), pred, reduction="batchmean")
