"""A VQA trainer keeps a list of the net's named parameters and, every step, reads each one's gradient norm
to the host through the index of that list (hold-out 17's MCAN `exec.py`: `norm_v =
torch.norm(named_params[name][1].grad).cpu().data.numpy() if ... .grad is not None else 0`)."""

import numpy as np
import torch


def train(net, loss_fn, optim, dataloader, epochs):
    net.cuda()
    named_params = list(net.named_parameters())
    grad_norm = np.zeros(len(named_params))
    for _epoch in range(epochs):
        for feat, ques, ans in dataloader:
            optim.zero_grad()
            loss = loss_fn(net(feat.cuda(), ques.cuda()), ans.cuda())
            loss.backward()
            for name in range(len(named_params)):
                norm_v = (
                    torch.norm(named_params[name][1].grad).cpu().data.numpy()  # expect: PP501
                    if named_params[name][1].grad is not None
                    else 0
                )
                grad_norm[name] += norm_v
            optim.step()
    return grad_norm
