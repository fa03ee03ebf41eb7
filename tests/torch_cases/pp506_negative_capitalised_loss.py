"""(torch-fix64) The clean twin: the capitalised loss makes its kernel on the image's device (`device=`), so nothing
crosses from the host."""

import torch
import torch.nn.functional as F


def TernaryLoss(im, im_warp, patch_size=7):
    def _transform(image):
        channels = patch_size * patch_size
        w = torch.eye(channels, device=image.device).view((channels, 1, patch_size, patch_size))
        weights = w.type_as(image)
        return F.conv2d(image.mean(1, keepdim=True), weights, padding=patch_size // 2)

    return (_transform(im) - _transform(im_warp)).abs().mean()
