"""Clean twin of pp501_positive_evaluation_model_through.py: the same loops keep their totals on the device
and read them once after the loop; a loop that hands the model to a def without binding a result
(`print_summary(model)`) runs no model. Nothing to report."""

import torch
import torch.nn.functional as F
from losses import criterion
from utils import print_summary


def test(model, dataloader):
    model.eval()
    test_loss = torch.zeros((), device="cuda")
    with torch.no_grad():
        for data, target in dataloader:
            data, target = data.cuda(), target.cuda()
            pred = model.predict(data)
            test_loss += F.nll_loss(F.log_softmax(pred, dim=1), target)
    return test_loss.item() / len(dataloader)


def evaluate(loader, model):
    loss_sum = torch.zeros((), device="cuda")
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss, output, stats = criterion(model, x, y)
            loss_sum += loss * x.size(0)
    return loss_sum.item() / len(loader.dataset)


def inspect(loader, model):
    seen = 0
    with torch.no_grad():
        for x, _y in loader:
            x = x.cuda()
            print_summary(model)
            seen += x.sum().item()
    return seen
