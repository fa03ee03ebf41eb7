"""A set-abstraction layer whose grouping helper empties the CUDA cache between its steps (PointNet++)."""

import torch
import torch.nn as nn


def sample_and_group(npoint, radius, nsample, xyz, points):
    fps_idx = torch.randperm(xyz.shape[1], device=xyz.device)[:npoint]
    torch.cuda.empty_cache()  # expect: PP510
    new_xyz = xyz[:, fps_idx]
    dists = torch.cdist(new_xyz, xyz)
    idx = dists.topk(nsample, largest=False).indices
    torch.cuda.empty_cache()  # expect: PP510
    return new_xyz, points[torch.arange(xyz.shape[0])[:, None, None], idx]


class PointNetSetAbstraction(nn.Module):
    def __init__(self, npoint, radius, nsample, in_channel, out_channel):
        super().__init__()
        self.npoint, self.radius, self.nsample = npoint, radius, nsample
        self.mlp = nn.Linear(in_channel, out_channel)

    def forward(self, xyz, points):
        new_xyz, new_points = sample_and_group(self.npoint, self.radius, self.nsample, xyz, points)
        return new_xyz, self.mlp(new_points).max(dim=2)[0]
