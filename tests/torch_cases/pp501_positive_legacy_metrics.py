"""A pre-0.4 `loss.data[0]` logged in a loss def a step method calls, and per-step copies for a
scikit-learn score kept in a metrics dict (torch-fix60)."""

import torch
import torch.nn as nn
from sklearn.metrics import precision_recall_fscore_support as prfs


class Embedder(nn.Module):
    def __init__(self, encoder, criterion, logger):
        super().__init__()
        self.encoder = encoder.cuda()
        self.criterion = criterion
        self.logger = logger

    def forward_loss(self, img_emb, cap_emb):
        loss = self.criterion(img_emb, cap_emb)
        self.logger.update("Le", loss.data[0], img_emb.size(0))  # expect: PP501
        return loss


def update_metrics(metrics, report):
    metrics["precision"].append(report[0])
    return metrics


def train(model, loader, criterion, optimizer, writer, epochs, device):
    for epoch in range(epochs):
        metrics = {"precision": []}
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            preds = model(images)
            loss = criterion(preds, labels)
            loss.backward()
            optimizer.step()
            _, picked = torch.max(preds, 1)
            report = prfs(
                labels.data.cpu().numpy().flatten(),  # expect: PP501
                picked.data.cpu().numpy().flatten(),
                average="binary",
            )
            metrics = update_metrics(metrics, report)
            mean = {k: sum(v) / len(v) for k, v in metrics.items()}
            for key, value in mean.items():
                writer.add_scalar(key, value, epoch)
