"""Blind2Unblind's train_b2u.py (hold-out 45): a masker made once at the margin, run on every step."""

import numpy as np
import torch


def interpolate_mask(tensor, mask, mask_inv):
    n, c, h, w = tensor.shape
    device = tensor.device
    mask = mask.to(device)
    kernel = np.array([[0.5, 1.0, 0.5], [1.0, 0.0, 1.0], (0.5, 1.0, 0.5)])
    kernel = kernel[np.newaxis, np.newaxis, :, :]
    kernel = torch.Tensor(kernel).to(device)  # expect: PP506
    kernel = kernel / kernel.sum()
    filtered = torch.nn.functional.conv2d(tensor.view(n * c, 1, h, w), kernel, stride=1, padding=1)
    return filtered.view_as(tensor) * mask + tensor * mask_inv


class Masker:
    def __init__(self, width=4, mode="interpolate"):
        self.width = width
        self.mode = mode

    def mask(self, img, index):
        mask = torch.zeros_like(img[:, :1])
        mask[..., index % self.width :: self.width, index // self.width :: self.width] = 1
        mask_inv = torch.ones(mask.shape).to(img.device) - mask  # expect: PP506
        if self.mode == "interpolate":
            masked = interpolate_mask(img, mask, mask_inv)
        else:
            raise NotImplementedError
        return masked, mask

    def train(self, img):
        n, c, h, w = img.shape
        tensors = torch.zeros((n, self.width**2, c, h, w), device=img.device)
        masks = torch.zeros((n, self.width**2, 1, h, w), device=img.device)
        for i in range(self.width**2):
            x, mask = self.mask(img, i)
            tensors[:, i, ...] = x
            masks[:, i, ...] = mask
        return tensors.view(-1, c, h, w), masks.view(-1, 1, h, w)


masker = Masker(width=4, mode="interpolate")
network = torch.nn.Conv2d(3, 3, 3, padding=1).cuda()
optimizer = torch.optim.Adam(network.parameters(), lr=3e-4)
dataset = torch.load("train_patches.pt")
loader = torch.utils.data.DataLoader(dataset, batch_size=4, num_workers=8, shuffle=True, pin_memory=True)

for _epoch in range(100):
    network.train()
    for clean in loader:
        noisy = clean.cuda() + 0.1 * torch.randn_like(clean.cuda())
        optimizer.zero_grad()
        net_input, mask = masker.train(noisy)
        output = (network(net_input) * mask).view(noisy.shape[0], -1, *noisy.shape[1:]).sum(dim=1)
        loss = torch.mean((output - noisy) ** 2)
        loss.backward()
        optimizer.step()
