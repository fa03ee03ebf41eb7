import torch
from energy_model import EnergyModel


class Trainer:
    def __init__(self, net, loader, device, energy_train=True):
        self.energy_model = EnergyModel(net, device)
        self.loader = loader
        self.device = device
        self.energy_train = energy_train
        self.optimizer = torch.optim.Adam(self.energy_model.parameters())
        self.summary = self.energy_model.describe()

    def train(self):
        for real, _ in self.loader:
            real = real.to(self.device)
            loss = -self.energy_model(real).mean()
            if self.energy_train:
                fake = self.energy_model.sample(real.shape[0])
                loss = loss + self.energy_model(fake).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
