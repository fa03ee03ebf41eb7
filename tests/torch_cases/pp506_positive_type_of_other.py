import torch
import torch.nn as nn


class GeneratorFullModel(nn.Module):
    def __init__(self, kp_extractor, generator, loss_weights):
        super().__init__()
        self.kp_extractor = kp_extractor
        self.generator = generator
        self.loss_weights = loss_weights
        if torch.cuda.is_available():
            self.kp_extractor = self.kp_extractor.cuda()

    def forward(self, x):
        kp_driving = self.kp_extractor(x["driving"])
        generated = self.generator(x["source"], kp_driving=kp_driving)
        value = kp_driving["jacobian"]
        eye = torch.eye(2).view(1, 1, 2, 2).type(value.type())  # expect: PP506
        loss = torch.abs(eye - value).mean() * self.loss_weights["equivariance_jacobian"]
        return loss, generated
