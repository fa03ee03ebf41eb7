"""Loops over a list of parameters, silent: the gradient norms are read only on a logging step, and a list
named like one but holding host arrays (`names = list(weights)`) is no list of parameters."""

import numpy as np
import torch


def train(net, loss_fn, optim, dataloader, weights):
    net.cuda()
    named_params = list(net.named_parameters())
    names = list(weights)
    grad_norm = np.zeros(len(named_params))
    for step, (feat, ans) in enumerate(dataloader):
        optim.zero_grad()
        loss = loss_fn(net(feat.cuda()), ans.cuda())
        loss.backward()
        if step % 100 == 0:
            for name in range(len(named_params)):
                grad_norm[name] += torch.norm(named_params[name][1].grad).cpu().numpy()
        for k in range(len(names)):
            grad_norm[k] += weights[names[k]].grad.sum()
        optim.step()
    return grad_norm
