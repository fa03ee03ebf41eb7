"""Legacy reads of a parameter only under a logging switch, and a scikit-learn score computed once an
epoch on predictions gathered on the host (torch-fix60 twin)."""

import numpy as np
import torch.nn as nn
from sklearn.metrics import f1_score


class Embedder(nn.Module):
    def __init__(self, encoder, criterion, logger, verbose=False):
        super().__init__()
        self.encoder = encoder.cuda()
        self.criterion = criterion
        self.logger = logger
        self.verbose = verbose

    def forward_loss(self, img_emb, cap_emb, step):
        loss = self.criterion(img_emb, cap_emb)
        if step % 100 == 0:
            self.logger.update("Le", loss.data[0], img_emb.size(0))
        return loss


def train(model, loader, criterion, optimizer, device, epochs):
    for epoch in range(epochs):
        preds, golds = [], []
        for images, labels in loader:
            optimizer.zero_grad()
            out = model(images.to(device))
            loss = criterion(out, labels.to(device))
            loss.backward()
            optimizer.step()
            preds.append(out.detach().argmax(1))
            golds.append(labels)
        score = f1_score(np.concatenate(golds), np.concatenate([p.cpu().numpy() for p in preds]))
        print(epoch, score)
