import torch
import torch.nn.functional as F


def base_grid(b, h, w):
    xs = torch.arange(0, w).repeat(b, h, 1)
    ys = torch.arange(0, h).repeat(b, w, 1).transpose(1, 2)
    grid = torch.stack([xs, ys], 1)
    return grid


def warp(x, flow):
    b, _, h, w = x.size()
    grid = base_grid(b, h, w).type_as(x)  # expect: PP506
    coords = grid + flow
    coords = coords.permute(0, 2, 3, 1)
    return F.grid_sample(x, coords, align_corners=True)


def warp_flow_only(x, flow):
    grid = (flow * 0).type_as(x)
    return F.grid_sample(x, grid.permute(0, 2, 3, 1), align_corners=True)
