# An experiment builder's training step: after the optimizer step it copies the prediction comparison to the
# host for `list` and returns a host copy of the loss; the epoch loop calls it on every batch (dferendo's
# experiment_builder.py, hold-out 35). The finding is on the first read and names the other one.
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


class ExperimentBuilder(nn.Module):
    def __init__(self, network_model, train_data):
        super().__init__()
        self.device = torch.device("cuda")
        self.model = network_model.to(self.device)
        self.train_data = train_data
        self.optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)

    def run_train_iter(self, x, y):
        self.train()
        x = x.to(self.device)
        y = y.to(self.device)
        out = self.model.forward(x)
        loss = F.cross_entropy(input=out, target=y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        _, predicted = torch.max(out.data, 1)
        accuracy = np.mean(list(predicted.eq(y.data).cpu()))  # expect: PP501
        return loss.data.detach().cpu().numpy(), accuracy

    def run_experiment(self, epochs):
        for _epoch in range(epochs):
            current = {"train_acc": [], "train_loss": []}
            for _idx, (x, y) in enumerate(self.train_data):
                loss, accuracy = self.run_train_iter(x=x, y=y)
                current["train_loss"].append(loss)
                current["train_acc"].append(accuracy)
        return current
