import torch
import torch.nn as nn


class LogisticGAN:
    """StyleGAN's losses: a parameter-free module built and called inline on every step's loss."""

    def __init__(self, dis):
        self.dis = dis

    def dis_loss(self, real_samps, fake_samps):
        r_preds = self.dis(real_samps)
        f_preds = self.dis(fake_samps)
        return torch.mean(nn.Softplus()(f_preds)) + torch.mean(nn.Softplus()(-r_preds))  # expect: PP507 low

    def gen_loss(self, fake_samps):
        f_preds = self.dis(fake_samps)
        return torch.mean(nn.Softplus()(-f_preds))  # expect: PP507 low


class HingeGAN:
    def __init__(self, dis):
        self.dis = dis

    def dis_loss(self, real_samps, fake_samps):
        r_preds = self.dis(real_samps)
        f_preds = self.dis(fake_samps)
        loss = torch.mean(nn.ReLU()(1 - r_preds))  # expect: PP507 low
        return loss + torch.mean(nn.ReLU()(1 + f_preds))  # expect: PP507 low
