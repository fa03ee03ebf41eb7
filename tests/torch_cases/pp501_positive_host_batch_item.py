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


def run_moved_by_key(model, optimizer, train_loader):
    """The batch's items moved by a loop over its keys first (HybrIK's shape, hold-out 24): the item read
    later is a device tensor, its copy waits."""
    for inps, labels in train_loader:
        for k in labels:
            labels[k] = labels[k].cuda()
        output = model(inps.cuda())
        loss = torch.nn.functional.mse_loss(output, labels["target"])
        gt = labels["target"].cpu().numpy()  # expect: PP501
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(gt.mean())
