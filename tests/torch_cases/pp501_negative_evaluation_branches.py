"""An evaluation loop that copies each batch's predictions to the host in either branch of a device test
(`if device == "cpu": pred.numpy() else: pred.cpu().numpy()`, hold-out 17's NIID-Bench `compute_accuracy`):
it waits for every batch anyway, so its `.item()` count is not reported."""

import numpy as np
import torch


def compute_accuracy(model, dataloader, device="cuda"):
    model.eval()
    correct, total = 0, 0
    pred_labels, true_labels = np.array([]), np.array([])
    with torch.no_grad():
        for x, target in dataloader:
            x, target = x.to(device), target.to(device)
            _, pred_label = torch.max(model(x).data, 1)
            total += x.size(0)
            correct += (pred_label == target).sum().item()
            if device == "cpu":
                pred_labels = np.append(pred_labels, pred_label.numpy())
                true_labels = np.append(true_labels, target.numpy())
            else:
                pred_labels = np.append(pred_labels, pred_label.cpu().numpy())
                true_labels = np.append(true_labels, target.cpu().numpy())
    return correct / total, pred_labels, true_labels
