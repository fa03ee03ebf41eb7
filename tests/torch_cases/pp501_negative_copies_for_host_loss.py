"""Validation outputs copied to the host and used there for more than a loss (plotted, indexed)."""

import numpy as np
import torch


class Exp:
    def __init__(self, model, device):
        self.device = device
        self.model = model.to(device)

    def vali(self, vali_loader, criterion, visual):
        total_loss = []
        self.model.eval()
        with torch.no_grad():
            for batch_x, batch_y in vali_loader:
                batch_x = batch_x.float().to(self.device)
                outputs = self.model(batch_x)
                batch_y = batch_y.float().to(self.device)
                pred = outputs.detach().cpu()
                true = batch_y.detach().cpu()
                loss = criterion(pred, true)
                total_loss.append(loss)
                visual(true[0, :, -1], pred[0, :, -1])
        total_loss = np.average(total_loss)
        self.model.train()
        return total_loss
