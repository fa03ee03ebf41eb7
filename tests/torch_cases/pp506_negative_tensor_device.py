"""(torch-fix54) The clean twin of `pp506_positive_tensor_device.py`: tensors made on the device of the tensor
at hand, a step's own array cast and moved (the copy carries data), and casts that move nothing."""

import torch
import torch.nn as nn


class RelationHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, feats, masks):
        n = feats.size(0)
        eye = torch.eye(n, device=feats.device)
        valid = torch.from_numpy(masks).to(torch.bool).to(feats.device)
        if torch.cuda.is_available():
            feats = feats.cuda()
        scale = torch.ones(n, device=feats.device).to(feats.dtype)
        half = feats.to(torch.float16)
        return self.fc(feats * eye) * valid + scale.sum() + half.sum()


class AnchorHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv = nn.Conv2d(dim, 2, 1)

    def forward(self, x, coords_x, coords_y):
        h, w = x.shape[-2:]
        yv, xv = torch.meshgrid(torch.arange(h, device=x.device), torch.arange(w, device=x.device))
        xv, yv = xv.flatten().float(), yv.flatten().float()
        gy, gx = torch.meshgrid(coords_y, coords_x)
        gx, gy = gx.to(x.device), gy.to(x.device)
        return self.conv(x).flatten(2) + xv.cuda() + yv.to(x.device) + gx.flatten() + gy.flatten()
