# Sampling grids whose `theta` is data (boxes of the batch, rows of an array) or is handed in: the values
# must cross anyway, or where `theta` lives is not known here.
import torch
import torch.nn.functional as F


def crop_boxes(x, boxes):
    theta = [[[b[0], 0, b[1]], [0, b[2], b[3]]] for b in boxes]
    theta = torch.tensor(theta, dtype=torch.float)
    grid = F.affine_grid(theta, x.shape).to(x.device)
    return F.grid_sample(x, grid)


def warp(x, theta):
    grid = F.affine_grid(theta, x.shape).to(x.device)
    return F.grid_sample(x, grid)


def shift(x, offsets):
    theta = [[[1, 0, offsets[i]], [0, 1, offsets[i]]] for i in range(x.shape[0])]
    theta = torch.tensor(theta, dtype=torch.float)
    grid = F.affine_grid(theta, x.shape).to(x.device)
    return F.grid_sample(x, grid)


def train(net, loader, optimizer, boxes, offsets, theta):
    for img, lab in loader:
        img = img.cuda()
        img = crop_boxes(img, boxes)
        img = warp(img, theta)
        img = shift(img, offsets)
        loss = F.cross_entropy(net(img), lab.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
