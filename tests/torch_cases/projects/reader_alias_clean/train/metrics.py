"""A project's metrics (benchmarking-gnns' train/metrics.py, hold-out 15): the accuracy is taken on the
host, with a loop over the classes of the confusion matrix it builds from its arguments."""

import numpy as np
import torch
from sklearn.metrics import confusion_matrix


def accuracy_SBM(scores, targets):
    truth = targets.cpu().numpy()
    C = np.argmax(torch.nn.Softmax(dim=1)(scores).cpu().detach().numpy(), axis=1)
    CM = confusion_matrix(truth, C).astype(np.float32)
    nb_classes = CM.shape[0]
    pr_classes = np.zeros(nb_classes)
    for r in range(nb_classes):
        cluster = np.where(truth == r)[0]
        if cluster.shape[0] != 0:
            pr_classes[r] = CM[r, r] / float(cluster.shape[0])
    return 100.0 * np.sum(pr_classes) / float(nb_classes)
