import torch.nn as nn


class SetVAE(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def compute_loss(self, x):
        rec, kl = self.encoder(x)
        return {"loss": rec + kl, "rec": rec, "kl": kl}

    def step(self, x, optimizer, clip=True):
        loss_dict = self.compute_loss(x)
        loss = loss_dict["loss"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss_dict
