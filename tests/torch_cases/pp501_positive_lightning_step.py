"""PyTorch Lightning step methods (TCP's and EfficientAT's shapes, hold-outs 26 and 27): the trainer runs
`training_step` on every batch and `validation_step` on every validation batch, and does backward and the
optimizer step itself, so no training loop or step def is in sight. Their `.item()` logs and
`loss.detach().cpu()` stores read each loss on the host (torch-fix93, `high`)."""

import pytorch_lightning as pl
import torch
import torch.nn.functional as F


class Planner(pl.LightningModule):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.outputs = []

    def training_step(self, batch, batch_idx):
        pred = self.model(batch["image"])
        wp_loss = F.l1_loss(pred, batch["waypoints"])
        speed_loss = F.mse_loss(pred, batch["speed"])
        loss = wp_loss + speed_loss
        self.log("train_wp_loss", wp_loss.item())  # expect: PP501 high
        self.log("train_speed_loss", speed_loss.item())
        self.outputs.append({"loss": loss.detach().cpu()})
        return loss

    def validation_step(self, batch, batch_idx):
        pred = self.model(batch["image"])
        val_loss = F.l1_loss(pred, batch["waypoints"])
        self.log("val_loss", val_loss.item(), sync_dist=True)  # expect: PP501 high

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-4)
