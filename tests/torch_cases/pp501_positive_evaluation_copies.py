"""PP501 (torch-fix121): evaluation loops that copy to the host on every batch only to collect the values for
after the loop. Predictions appended as NumPy arrays and concatenated once the loop ends (TabSurvey's
`predict_helper`) wait for each batch: `medium`. A loss or a sum copied into a running total
(`total_loss += loss.data.cpu().numpy()[0] * len(b)`, HAT's `eval`) is an `.item()` by another name: `high`."""

import numpy as np
import torch

device = torch.device("cuda")


def predict_helper(model, test_loader):
    predictions = []
    with torch.no_grad():
        for batch_X in test_loader:
            preds = model(batch_X[0].to(device))
            preds = torch.sigmoid(preds)
            predictions.append(preds.detach().cpu().numpy())  # expect: PP501 medium
    return np.concatenate(predictions)


def evaluate(model, criterion, x, y, sbatch=64):
    total_loss, total_acc, total_num = 0, 0, 0
    model.eval()
    r = torch.arange(x.size(0)).to(device)
    with torch.no_grad():
        for i in range(0, len(r), sbatch):
            b = r[i : i + sbatch]
            output = model(x[b])
            loss = criterion(output, y[b])
            _, pred = output.max(1)
            hits = (pred == y[b]).float()
            total_loss += loss.data.cpu().numpy()[0] * len(b)  # expect: PP501
            total_acc += hits.sum().data.cpu().numpy()[0]
            total_num += len(b)
    return total_loss / total_num, total_acc / total_num
