"""A virtual try-on training script (PF-AFN's and ACGPN's shape, hold-out 27): masks thresholded through NumPy
from the loader's label map at the top of every step, then the losses logged with `writer.add_scalar`. The
label map is the loader's host tensor (`.cpu()` is a no-op), so those reads wait for nothing; the scalar
logs of the CUDA losses are the step's reads (torch-fix93)."""

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

writer = SummaryWriter("runs")


def run(model, optimizer, train_loader, epochs):
    step = 0
    for _ in range(epochs):
        for data in train_loader:
            t_mask = torch.FloatTensor((data["label"].cpu().numpy() == 7).astype(np.float32))
            data["label"] = data["label"] * (1 - t_mask) + t_mask * 4
            edge = torch.FloatTensor((data["label"].cpu().numpy() == 4).astype(np.int64))
            real_image = data["image"].cuda()
            out = model(real_image, edge.cuda())
            loss_all = torch.nn.functional.l1_loss(out, real_image)
            writer.add_scalar("loss_all", loss_all, step)  # expect: PP501
            optimizer.zero_grad()
            loss_all.backward()
            optimizer.step()
            step += 1
