"""PP509 `low` row reads (torch-fix152): a row read of a model's output for each chunk (IGR's plotting grid)
and per-bin reads over bins the def made with `torch.linspace` (TransMorph's calibration loss), next to a
`medium` per-row read of a batch's labels."""

import numpy as np
import torch


def plot_cuts(points, decoder, latent=None):
    grids = [np.linspace(-1, 1, 200) + i for i in range(10)]
    cuts = []
    for pos in grids:
        field_input = torch.tensor(pos.T, dtype=torch.float).cuda()
        z = []
        for _, pnts in enumerate(torch.split(field_input, 1000, dim=-1)):
            input_ = pnts
            if latent is not None:
                input_ = torch.cat([latent.expand(pnts.shape[0], -1), pnts], dim=1)
            z.append(decoder(input_).detach().cpu().numpy())  # expect: PP509 low
        cuts.append(np.concatenate(z, axis=0))
    return cuts


def uceloss(errors, uncert, n_bins=15):
    device = errors.device
    bin_boundaries = torch.linspace(0.0, 1.0, n_bins + 1, device=device)
    bin_lowers = bin_boundaries[:-1]
    bin_uppers = bin_boundaries[1:]
    uce = torch.zeros(1, device=device)
    for bin_lower, bin_upper in zip(bin_lowers, bin_uppers, strict=True):
        in_bin = uncert.gt(bin_lower.item()) * uncert.le(bin_upper.item())  # expect: PP509 low
        prop_in_bin = in_bin.float().mean()
        uce += (errors[in_bin].mean() - uncert[in_bin].mean()).abs() * prop_in_bin
    return uce


def train(model, loader, optimizer, counts):
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        loss = model(images).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for i in range(labels.size(0)):
            counts[labels[i].item()] += 1  # expect: PP509
