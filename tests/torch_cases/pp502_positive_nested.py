"""A total summed in an inner loop but reset only every tenth step keeps ten steps of graphs."""

import torch.nn.functional as F


def train(model, loader, optimizer, num_heads, device, log):
    window = 0.0
    for i, (data, label) in enumerate(loader):
        data, label = data.to(device), label.to(device)
        optimizer.zero_grad()
        outs = model(data)
        loss = 0.0
        for k in range(num_heads):
            head_loss = F.cross_entropy(outs[k], label)
            loss += head_loss
            window += head_loss  # expect: PP502
        loss.backward()
        optimizer.step()
        if i % 10 == 0:
            log(window / 10)
            window = 0.0
