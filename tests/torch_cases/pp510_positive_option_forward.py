import torch
import torch.nn as nn


class MMDLoss(nn.Module):
    def __init__(self, kernel_type="rbf"):
        super().__init__()
        self.kernel_type = kernel_type

    def forward(self, source, target):
        if self.kernel_type == "linear":
            return (source.mean(0) - target.mean(0)).pow(2).sum()
        elif self.kernel_type == "rbf":
            total = torch.cat([source, target], dim=0)
            kernels = torch.exp(-torch.cdist(total, total))
            loss = kernels.mean()
            torch.cuda.empty_cache()  # expect: PP510
            return loss


class GatedLoss(nn.Module):
    def __init__(self, flush=False):
        super().__init__()
        self.flush = flush

    def forward(self, source, target):
        loss = (source - target).pow(2).mean()
        if loss.isnan():
            torch.cuda.empty_cache()
        return loss
