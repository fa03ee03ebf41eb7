"""The twin of pp506_positive_deviceless_grid.py: the forward hands its device to the grid helper (by keyword
and by position), so the helper's guarded move is the only copy and the calls copy nothing more (the helper's
own move, of a grid built on the host every forward, is still reported)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def coords_grid(b, h, w, homogeneous=False, device=None):
    y, x = torch.meshgrid(torch.arange(h), torch.arange(w))
    stacks = [x, y]
    grid = torch.stack(stacks, dim=0).float()
    grid = grid[None].repeat(b, 1, 1, 1)
    if device is not None:
        grid = grid.to(device)  # expect: PP506 medium
    return grid


class Matcher(nn.Module):
    def forward(self, feature0, feature1):
        b, c, h, w = feature0.shape
        correlation = torch.matmul(feature0.view(b, c, -1).permute(0, 2, 1), feature1.view(b, c, -1))
        prob = F.softmax(correlation.view(b, h * w, h * w), dim=-1)
        init_grid = coords_grid(b, h, w, device=correlation.device)
        back_grid = coords_grid(b, h, w, False, correlation.device)
        grid = (init_grid + back_grid).view(b, 2, -1).permute(0, 2, 1)
        return torch.matmul(prob, grid).view(b, h, w, 2).permute(0, 3, 1, 2)
