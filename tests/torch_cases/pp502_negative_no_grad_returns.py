"""torch-fix104: sums of what a test def returns when it computes all of it under `torch.no_grad()`
(PECNet's notebook `test_model`, run 150 times and averaged): nothing returned has a graph to keep."""

import torch
import torch.nn.functional as F


def test_model(model, x, y):
    model.eval()
    with torch.no_grad():
        pred = model(x)
        test_loss = F.mse_loss(pred, y)
        final_loss = F.mse_loss(pred[:, -1], y[:, -1])
    return test_loss, final_loss


def run_test(model, x, y, num_samples=150):
    average_ade, average_fde = 0, 0
    for _ in range(num_samples):
        test_loss, final_loss = test_model(model, x, y)
        average_ade += test_loss
        average_fde += final_loss
    return average_ade / num_samples, average_fde / num_samples
