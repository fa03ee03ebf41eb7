"""Evaluation loops that stay reported next to the demo shapes; pre-0.4 `volatile=True` code is not reported
(torch-fix51: 6 of 83 such findings read right as first read over hold-outs 8-16), and since the module writes
`volatile=`, its other loops are medium (torch-fix97: 0.3-era code)."""

import torch
from torch.autograd import Variable

device = torch.device("cuda")


def evaluate(model, loader):
    model.eval()
    correct = 0
    for k, (x, y) in enumerate(loader):
        out = model(x.to(device))  # expect: PP503 medium
        correct += (out.argmax(1).cpu() == y).sum().item()  # expect: PP501 (copied only to count)
        if k >= 500:  # five hundred batches: a workload
            break
    return correct


def train_and_compare(nets, optimizers, loader, test_x, test_y, loss_fn, epochs):
    for _ in range(epochs):
        for x, y in loader:
            for net, opt in zip(nets, optimizers, strict=True):
                opt.zero_grad()
                loss_fn(net(x), y).backward()
                opt.step()
        for net in nets:
            net.eval()
            print(loss_fn(net(test_x), test_y).item())  # expect: PP503 medium
            net.train()


def old_test(model, test_loader):
    model.eval()
    total = 0
    for data, target in test_loader:
        data = Variable(data.cuda(), volatile=True)
        output = model(data)
        total += output.max(1)[1].eq(target.cuda()).sum()
    return total


def sample_predictions(model, test_data):
    model.eval()
    num_samples = 500
    found = []
    for i in range(num_samples):
        image, _ = test_data[i]
        found.append(model(image.unsqueeze(0).to(device)).argmax().item())  # expect: PP503 medium
    return found
