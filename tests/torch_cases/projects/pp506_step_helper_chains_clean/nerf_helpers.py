import torch


def raw2outputs(raw, z_vals):
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    far = torch.full_like(dists[..., :1], 1e10)
    dists = torch.cat([dists, far], -1)
    alpha = 1.0 - torch.exp(-torch.relu(raw[..., 3]) * dists)
    return (alpha[..., None] * torch.sigmoid(raw[..., :3])).sum(-2)
