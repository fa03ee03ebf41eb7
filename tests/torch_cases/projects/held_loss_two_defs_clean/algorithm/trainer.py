import torch
from algorithm.loss import ce_plain, loss_small


class CoTrainer:
    def __init__(self, model1, model2, device, plain=False):
        self.device = device
        self.model1 = model1.to(device)
        self.model2 = model2.to(device)
        self.optimizer = torch.optim.Adam(list(model1.parameters()) + list(model2.parameters()))
        if plain:
            self.loss_fn = ce_plain
        else:
            self.loss_fn = loss_small

    def train(self, loader, forget_rate):
        for images, labels in loader:
            images, labels = images.to(self.device), labels.to(self.device)
            loss = self.loss_fn(self.model1(images), self.model2(images), labels, forget_rate)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
