"""The clean twin's loop: the evaluation pass runs after the epoch, the dict helper every 100 steps."""

import torch
from metrics import Accumulator, Result, to_floats


def train(model, loader, optimizer):
    model = model.cuda()
    result = Result()
    meter = Accumulator()
    logs = []
    for step, (images, depth) in enumerate(loader):
        images, depth = images.cuda(), depth.cuda()
        optimizer.zero_grad()
        loss = torch.nn.functional.l1_loss(model(images), depth)
        loss.backward()
        optimizer.step()
        if step % 100 == 0:
            print("loss", loss.item())
        result.add(step)
        meter.update(0.5, [])
        if step % 100 == 0:
            logs.append(to_floats({"loss": loss.detach()}))
    result.evaluate(model, loader)
    return logs
