# Host round trips on every training step: a loss's label helper copies the labels to the host for sklearn
# and moves the one-hot matrix back (ProxyNCA's `binarize_and_smooth_labels`, hold-outs 30 and 37), and a
# training loop resizes each label on the host between two moves (AMN's `resize_labels`, hold-out 36).
import numpy as np
import sklearn.preprocessing
import torch
import torch.nn.functional as F


def binarize_and_smooth_labels(T, nb_classes, smoothing_const=0.1):
    T = T.cpu().numpy()  # expect: PP501
    T = sklearn.preprocessing.label_binarize(T, classes=range(0, nb_classes))
    T = T * (1 - smoothing_const)
    T[T == 0] = smoothing_const / (nb_classes - 1)
    T = torch.FloatTensor(T).cuda()  # expect: PP506 high
    return T


class ProxyNCA(torch.nn.Module):
    def __init__(self, nb_classes, sz_embed):
        super().__init__()
        self.proxies = torch.nn.Parameter(torch.randn(nb_classes, sz_embed) / 8)

    def forward(self, X, T):
        P = F.normalize(self.proxies, p=2, dim=-1)
        D = torch.cdist(F.normalize(X, p=2, dim=-1), P) ** 2
        T = binarize_and_smooth_labels(T, len(P))
        return torch.sum(-T * F.log_softmax(-D, -1), -1).mean()


def resize_labels(labels, size):
    return torch.from_numpy(np.stack([np.resize(x.numpy(), size) for x in labels]))


def train(model, loader, optimizer):
    model.cuda()
    model.train()
    for img, label in loader:
        img = img.cuda(non_blocking=True)
        label = label.cuda(non_blocking=True)
        logit = model(img)
        small = resize_labels(label.cpu(), size=logit.shape[-2:]).cuda()  # expect: PP501
        loss = F.cross_entropy(logit, small)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
