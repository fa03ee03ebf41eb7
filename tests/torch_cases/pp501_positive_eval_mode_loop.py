import numpy as np
import torch
import torch.nn as nn


# A validation def named for neither evaluation nor guarded by no_grad: only `model.eval()` says what it is.
class Solver:
    def __init__(self, model):
        self.device = torch.device("cuda")
        self.model = model.to(self.device)
        self.criterion = nn.MSELoss()

    def vali(self, vali_loader):
        self.model.eval()
        losses = []
        for input_data, _ in vali_loader:
            x = input_data.float().to(self.device)
            output = self.model(x)  # expect: PP503 high
            losses.append(self.criterion(output, x).item())  # expect: PP501 medium
        return np.average(losses)
