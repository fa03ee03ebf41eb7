from collections import defaultdict

import torch
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train(vae, data_loader, optimizer, epochs):
    for _epoch in range(epochs):
        tracker_epoch = defaultdict(lambda: defaultdict(dict))
        for _iteration, (x, y) in enumerate(data_loader):
            x, y = x.to(device), y.to(device)
            recon_x, mean, log_var, z = vae(x, y)
            for i, yi in enumerate(y):
                id = len(tracker_epoch)
                tracker_epoch[id]["x"] = z[i, 0].item()  # expect: PP509
                tracker_epoch[id]["y"] = z[i, 1].item()
                tracker_epoch[id]["label"] = yi.item()
            loss = F.binary_cross_entropy(recon_x, x) - 0.5 * torch.sum(
                1 + log_var - mean.pow(2) - log_var.exp()
            )
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
