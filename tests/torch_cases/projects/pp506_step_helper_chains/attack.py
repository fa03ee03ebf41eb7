"""An early-stopped PGD attack: it runs a backward at each of its steps but steps no optimizer, and the training
loop of another module calls it on every step, so its set-up before its own loop runs once per training step
(FAT's `earlystop`, torch-fix103)."""

import torch
import torch.nn as nn


def earlystop(model, data, target, step_size, epsilon, perturb_steps, tau):
    model.eval()
    control = (torch.ones(len(target)) * tau).cuda()  # expect: PP506
    iter_adv = data.detach() + 0.001 * torch.randn_like(data)
    for _ in range(perturb_steps):
        iter_adv.requires_grad_()
        output = model(iter_adv)
        keep = (output.argmax(1) == target) | (control > 0)
        control = control - (~keep).float()
        loss = nn.functional.cross_entropy(output, target)
        model.zero_grad()
        loss.backward()
        eta = step_size * iter_adv.grad.sign()
        iter_adv = torch.min(torch.max(iter_adv.detach() + eta, data - epsilon), data + epsilon).clamp(0, 1)
    return iter_adv.detach()
