"""The training loop that runs the metric methods and the dict helper of metrics.py on every step."""

import torch
from metrics import Accumulator, Result, to_floats


def train(model, loader, optimizer):
    model = model.cuda()
    result = Result()
    meter = Accumulator()
    logs = []
    for images, depth in loader:
        images, depth = images.cuda(), depth.cuda()
        optimizer.zero_grad()
        pred = model(images)
        loss = torch.nn.functional.l1_loss(pred, depth)
        loss.backward()
        optimizer.step()
        print("loss", loss.item())  # expect: PP501
        result.evaluate(pred.data, depth.data)
        meter.update(loss, {"l1": loss.detach()})
        logs.append(to_floats({"loss": loss.detach()}))
    return logs
