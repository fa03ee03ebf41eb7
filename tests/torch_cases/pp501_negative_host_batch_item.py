"""The twin of pp501_positive_host_batch_item.py: host thresholds of the loader's label map only, and the loss
kept on the device; the label moved to the GPU before a later read is not judged here (torch-fix93)."""

import numpy as np
import torch


def run(model, optimizer, train_loader, epochs):
    total = torch.zeros(())
    for _ in range(epochs):
        for data in train_loader:
            t_mask = torch.FloatTensor((data["label"].cpu().numpy() == 7).astype(np.float32))
            data["label"] = data["label"] * (1 - t_mask) + t_mask * 4
            mask = torch.FloatTensor((data["label"].cpu().numpy() == 4).astype(np.int64))
            real_image = data["image"].cuda()
            loss = torch.nn.functional.l1_loss(model(real_image, mask.cuda()), real_image)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.detach()
        print(total.item())
