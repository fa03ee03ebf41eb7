"""torch-fix104: a validation loss computed from detached host copies of the outputs (SCINet's `loss =
criterion(pred.detach().cpu(), true.detach().cpu())`), appended to a list: it has no graph to keep."""

import numpy as np
import torch


def valid(model, loader, criterion, device, stacks):
    model.eval()
    torch.backends.cudnn.benchmark = False
    total_loss = []
    for batch_x, batch_y in loader:
        pred, mid = model(batch_x.to(device))  # expect: PP503 high
        true = batch_y.to(device)
        if stacks == 1:
            loss = criterion(pred.detach().cpu(), true.detach().cpu())
        else:
            loss = criterion(pred.detach().cpu(), true.detach().cpu()) + criterion(
                mid.detach().cpu(), true.detach().cpu()
            )
        total_loss.append(loss)
    return np.average(total_loss)
