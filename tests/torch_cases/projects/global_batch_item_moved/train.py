"""The twin of global_batch_item/train.py whose loop moves the label map to the GPU by key first: the reads in
`changearm` copy a device tensor back every step (torch-fix93)."""

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
    arm1 = torch.FloatTensor((data["label"].cpu().numpy() == 11).astype(np.int64))  # expect: PP501
    arm2 = torch.FloatTensor((data["label"].cpu().numpy() == 13).astype(np.int64))
    label = label * (1 - arm1) + arm1 * 4
    return label * (1 - arm2) + arm2 * 4


step = 0
for _ in range(10):
    for data in dataset:
        data["label"] = data["label"].cuda()
        all_clothes_label = changearm(data["label"])
        loss_d = model(data["image"].cuda(), all_clothes_label.cuda())
        writer.add_scalar("loss_d", loss_d, step)  # expect: PP501
        optimizer.zero_grad()
        loss_d.backward()
        optimizer.step()
        step += 1
