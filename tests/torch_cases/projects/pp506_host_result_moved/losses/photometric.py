import torch.nn as nn
from utils.warping import warp, warp_flow_only


class PhotometricLoss(nn.Module):
    def forward(self, img1, img2, flow):
        recon = warp(img2, flow)
        again = warp_flow_only(img2, flow)
        return (recon - img1).abs().mean() + (again - img1).abs().mean()
