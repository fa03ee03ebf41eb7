"""The twin of the copied-either-way evaluation: predictions go to the host only when asked
(`if save_predictions:`), so most evaluations wait only for the `.item()` count, every batch."""

import numpy as np
import torch


def compute_accuracy(model, dataloader, device="cuda", save_predictions=False):
    model.eval()
    correct, total = 0, 0
    pred_labels = np.array([])
    with torch.no_grad():
        for x, target in dataloader:
            x, target = x.to(device), target.to(device)
            _, pred_label = torch.max(model(x).data, 1)
            total += x.size(0)
            correct += (pred_label == target).sum().item()  # expect: PP501
            if save_predictions:
                pred_labels = np.append(pred_labels, pred_label.cpu().numpy())
    return correct / total, pred_labels
