"""A try-on training script (ACGPN's shape, hold-out 27): `changearm` thresholds the module-global batch's label
map through NumPy. `data` is the loader's batch and its label map stays on the host, so those reads wait for
nothing (torch-fix93); the loop's `writer.add_scalar` of the CUDA loss is its read."""

import numpy as np
import torch
from data_loader import CreateDataLoader
from models import create_model
from torch.utils.tensorboard import SummaryWriter

writer = SummaryWriter("runs")
model = create_model().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
dataset = CreateDataLoader().load_data()


def changearm(old_label):
    label = old_label
    arm1 = torch.FloatTensor((data["label"].cpu().numpy() == 11).astype(np.int64))
    arm2 = torch.FloatTensor((data["label"].cpu().numpy() == 13).astype(np.int64))
    label = label * (1 - arm1) + arm1 * 4
    return label * (1 - arm2) + arm2 * 4


step = 0
for _ in range(10):
    for data in dataset:
        all_clothes_label = changearm(data["label"])
        loss_d = model(data["image"].cuda(), all_clothes_label.cuda())
        writer.add_scalar("loss_d", loss_d, step)  # expect: PP501
        optimizer.zero_grad()
        loss_d.backward()
        optimizer.step()
        step += 1
