import torch
import torch.nn as nn


class GeneratorFullModel(nn.Module):
    def __init__(self, kp_extractor, generator, loss_weights):
        super().__init__()
        self.kp_extractor = kp_extractor
        self.generator = generator
        self.loss_weights = loss_weights
        self.register_buffer("eye", torch.eye(2).view(1, 1, 2, 2))
        if torch.cuda.is_available():
            self.kp_extractor = self.kp_extractor.cuda()

    def forward(self, x):
        kp_driving = self.kp_extractor(x["driving"])
        generated = self.generator(x["source"], kp_driving=kp_driving)
        value = kp_driving["jacobian"]
        scale = value.new_ones(1).type(value.type())  # made where value is: no copy
        loss = torch.abs(self.eye - value).mean() * self.loss_weights["equivariance_jacobian"] * scale
        return loss, generated
