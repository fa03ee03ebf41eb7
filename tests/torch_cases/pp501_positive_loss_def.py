"""A few-shot model whose `loss` method an engine of another module calls on every training step: it returns
the loss tensor for the backward and reads the loss and the accuracy on the host for the log."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Protonet(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def loss(self, sample):
        xs, xq = sample["xs"].cuda(), sample["xq"].cuda()
        n_class, n_support, n_query = xs.size(0), xs.size(1), xq.size(1)
        target = torch.arange(n_class, device=xq.device).view(n_class, 1, 1).expand(n_class, n_query, 1)
        z = self.encoder(torch.cat([xs.flatten(0, 1), xq.flatten(0, 1)], 0))
        protos = z[: n_class * n_support].view(n_class, n_support, -1).mean(1)
        dists = torch.cdist(z[n_class * n_support :], protos)
        log_p_y = F.log_softmax(-dists, dim=1).view(n_class, n_query, -1)
        loss_val = -log_p_y.gather(2, target).squeeze().view(-1).mean()
        acc_val = torch.eq(log_p_y.argmax(2), target.squeeze()).float().mean()
        return loss_val, {"loss": loss_val.item(), "acc": acc_val.item()}  # expect: PP501
