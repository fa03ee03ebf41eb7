# Python's `sum` over comparisons of host values: NumPy predictions, lists, a comparison of a plain list
# bound by a comprehension, and a device comparison summed once after the loop
import numpy as np
import torch


@torch.no_grad()
def evaluate(model, loader, device):
    correct = 0
    for x, y in loader:
        pred = model(x.to(device)).argmax(1).cpu().numpy()
        labels = y.numpy()
        correct += sum(pred == labels)
        names = [str(v) for v in labels]
        correct += sum(n == "0" for n in names)
    return correct


def accuracy(outputs, targets):
    pred = torch.cat(outputs).cuda()
    target = torch.cat(targets).cuda()
    return sum(pred == target)


@torch.no_grad()
def host_scores(model, loader):
    total = 0
    for x, _y in loader:
        scores = np.asarray(model(x).tolist())
        total += max(scores)
    return total
