import numpy as np
import torch
import torch.nn as nn


# The def puts the model back in training mode before its loop: a fitting pass, not an evaluation.
class Solver:
    def __init__(self, model):
        self.device = torch.device("cuda")
        self.model = model.to(self.device)
        self.criterion = nn.MSELoss()

    def vali(self, vali_loader):
        self.model.eval()
        self.model.train()
        losses = []
        for input_data, _ in vali_loader:
            x = input_data.float().to(self.device)
            output = self.model(x)
            losses.append(self.criterion(output, x).detach())
        return np.average(losses)
