"""(torch-fix64) A loss def named in capitals (`def TernaryLoss(...)`), which the lower-case loss names leave out:
its inner helper makes an identity kernel on the host and `.type_as(image)` copies it to the image's device on
every call of the loss, that is on every training step."""

import torch
import torch.nn.functional as F


def TernaryLoss(im, im_warp, patch_size=7):
    def _transform(image):
        channels = patch_size * patch_size
        w = torch.eye(channels).view((channels, 1, patch_size, patch_size))
        weights = w.type_as(image)  # expect: PP506 high
        return F.conv2d(image.mean(1, keepdim=True), weights, padding=patch_size // 2)

    return (_transform(im) - _transform(im_warp)).abs().mean()
