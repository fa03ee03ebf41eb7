# DSA's differentiable augmentations (DC, MTT and CAFE, hold-out 38): the scale or rotation matrices are drawn
# on the host, gathered element by element into `torch.tensor`, turned into a sampling grid there and copied
# to the device on every augmentation; `DiffAugment` runs them through a table of defs on every step.
import numpy as np
import torch
import torch.nn.functional as F


def rand_scale(x, param):
    ratio = param.ratio_scale
    sx = torch.rand(x.shape[0]) * (ratio - 1.0 / ratio) + 1.0 / ratio
    sy = torch.rand(x.shape[0]) * (ratio - 1.0 / ratio) + 1.0 / ratio
    theta = [[[sx[i], 0, 0], [0, sy[i], 0]] for i in range(x.shape[0])]
    theta = torch.tensor(theta, dtype=torch.float)
    if param.Siamese:
        theta[:] = theta[0]
    grid = F.affine_grid(theta, x.shape).to(x.device)  # expect: PP506 high
    return F.grid_sample(x, grid)


def rand_rotate(x, param):
    ratio = param.ratio_rotate
    theta = (torch.rand(x.shape[0]) - 0.5) * 2 * ratio / 180 * float(np.pi)
    theta = [
        [[torch.cos(theta[i]), torch.sin(-theta[i]), 0], [torch.sin(theta[i]), torch.cos(theta[i]), 0]]
        for i in range(x.shape[0])
    ]
    theta = torch.tensor(theta, dtype=torch.float)
    grid = F.affine_grid(theta, x.shape).to(x.device)  # expect: PP506 high
    return F.grid_sample(x, grid)


def DiffAugment(x, strategy, param):
    for p in strategy.split("_"):
        for f in AUGMENT_FNS[p]:
            x = f(x, param)
    return x.contiguous()


AUGMENT_FNS = {"scale": [rand_scale], "rotate": [rand_rotate]}


def train(net, loader, optimizer, args):
    for img, lab in loader:
        img = DiffAugment(img.cuda(), args.dsa_strategy, args.dsa_param)
        loss = F.cross_entropy(net(img), lab.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
