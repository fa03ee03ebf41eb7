import torch.nn.functional as F
from nerf_helpers import raw2outputs


def render_rays(model, rays, z_vals):
    raw = model(rays, z_vals)
    return raw2outputs(raw, z_vals)


def train(model, loader, optimizer):
    for rays, z_vals, target in loader:
        rays, z_vals, target = rays.cuda(), z_vals.cuda(), target.cuda()
        rgb = render_rays(model, rays, z_vals)
        loss = F.mse_loss(rgb, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
