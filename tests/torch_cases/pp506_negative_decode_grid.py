"""A flow's diagnostics: the index grid is cast to `torch.int64` on the host (a dtype, not a device), and
a zero buffer made in a loop that steps nothing but runs the model every pass is `high` (torch-fix50; `medium` since torch-fix48)."""

import torch


def trajectories(model, z_grid, viz_times, memory=0.01):
    outs = []
    for t in viz_times[1:]:
        inds = torch.arange(0, z_grid.shape[0]).to(torch.int64)
        logpz = torch.zeros(z_grid.shape[0], 1).cuda()  # expect: PP506 high
        for ii in torch.split(inds, int(z_grid.shape[0] * memory)):
            outs.append(model(z_grid[ii], logpz[ii], t))
    return outs
