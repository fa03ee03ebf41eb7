"""A LightningModule whose training_step hands the batch to a helper that draws time indices on the host and
moves them (conditional-flow-matching): Lightning's fit loop, not in the project, runs it every step."""

import pytorch_lightning as pl
import torch


class FlowMatchingModule(pl.LightningModule):
    def __init__(self, net, times):
        super().__init__()
        self.net = net
        self.times = times

    def preprocess_batch(self, X, training=False):
        batch_size = X.shape[0]
        t_select = torch.randint(self.times - 1, size=(batch_size,)).to(X.device)  # expect: PP506 high
        return X[:, 0], X[:, 1], t_select

    def step(self, batch, training=False):
        x0, x1, t_select = self.preprocess_batch(batch, training)
        t = torch.rand(x0.shape[0], device=x0.device)
        xt = t[:, None] * x1 + (1 - t[:, None]) * x0
        return torch.mean((self.net(xt, t + t_select) - (x1 - x0)) ** 2)

    def training_step(self, batch, batch_idx):
        loss = self.step(batch, training=True)
        self.log("train/loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)
