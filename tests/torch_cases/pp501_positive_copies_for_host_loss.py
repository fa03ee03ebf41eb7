"""Validation outputs copied to the host for a loss computed there (the Time-Series-Library `vali`)."""

import numpy as np
import torch


class Exp:
    def __init__(self, model, device):
        self.device = device
        self.model = model.to(device)

    def vali(self, vali_loader, criterion):
        total_loss = []
        self.model.eval()
        with torch.no_grad():
            for batch_x, batch_y in vali_loader:
                batch_x = batch_x.float().to(self.device)
                outputs = self.model(batch_x)
                batch_y = batch_y.float().to(self.device)
                pred = outputs.detach().cpu()  # expect: PP501 medium
                true = batch_y.detach().cpu()
                loss = criterion(pred, true)
                total_loss.append(loss)
        total_loss = np.average(total_loss)
        self.model.train()
        return total_loss
