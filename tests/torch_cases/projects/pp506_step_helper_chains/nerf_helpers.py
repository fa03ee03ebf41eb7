"""A volume-rendering helper that pads its distances with a host constant moved on every call; the training loop
of another module reaches it through a def of its own module (DSNeRF's `render_rays` calling `raw2outputs`,
torch-fix103)."""

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def raw2outputs(raw, z_vals):
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    far = torch.Tensor([1e10]).to(device)  # expect: PP506
    dists = torch.cat([dists, far.expand(dists[..., :1].shape)], -1)
    alpha = 1.0 - torch.exp(-torch.relu(raw[..., 3]) * dists)
    return (alpha[..., None] * torch.sigmoid(raw[..., :3])).sum(-2)
