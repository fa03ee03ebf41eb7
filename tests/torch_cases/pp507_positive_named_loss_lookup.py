"""PP507: a loss class looked up by its name from the configuration (`eval(self.criterion)`, `getattr(nn,
args.loss)`) and built and called at once on every step of the client's training loop (FedAvg's client)."""

import torch
import torch.nn as nn


class Client:
    def __init__(self, model, loader, config):
        self.model = model
        self.dataloader = loader
        self.device = config["device"]
        self.criterion = config["criterion"]
        self.optimizer = config["optimizer"]
        self.optim_config = config["optim_config"]
        self.local_epoch = config["local_epoch"]

    def client_update(self):
        self.model.train()
        self.model.to(self.device)
        optimizer = eval(self.optimizer)(self.model.parameters(), **self.optim_config)
        for _ in range(self.local_epoch):
            for data, labels in self.dataloader:
                data, labels = data.float().to(self.device), labels.long().to(self.device)
                optimizer.zero_grad()
                outputs = self.model(data)
                loss = eval(self.criterion)()(outputs, labels)  # expect: PP507
                loss.backward()
                optimizer.step()
        self.model.to("cpu")


def train(args, model, loader, optimizer):
    for inputs, targets in loader:
        inputs, targets = inputs.cuda(), targets.cuda()
        loss = getattr(nn, args.loss_name)()(model(inputs), targets)  # expect: PP507
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return torch.zeros(1)
