import torch
import torch.nn as nn


class FinetuneTrainer:
    def __init__(self, model, train_data, valid_data, device):
        self.model = model.to(device)
        self.train_data, self.valid_data = train_data, valid_data
        self.device = device
        self.optim = torch.optim.AdamW(self.model.parameters(), lr=2e-5)
        self.loss_func = nn.CrossEntropyLoss()

    def train(self):
        self.model.train()
        return self.iteration(self.train_data, 0)

    def valid(self):
        self.model.eval()
        return self.iteration(self.valid_data, 1)  # expect: PP503 medium

    def iteration(self, training_data, mode):
        total_loss = []
        for x, y in training_data:
            x, y = x.to(self.device), y.to(self.device)
            y_hat = self.model.forward(x)
            loss = self.loss_func(y_hat, y)
            total_loss.append(loss.detach())
            if mode == 0:
                self.model.zero_grad()
                loss.backward()
                self.optim.step()
        return torch.stack(total_loss).mean().item()


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model.cuda()
        self.optimizer = optimizer

    def train_model(self, train_loader, val_loader, num_epochs):
        for epoch_index in range(num_epochs):
            self.model.train()
            train_loss = self.loss_and_acc_on_epoch(train_loader, epoch_index, train=True)
            self.model.eval()
            val = self.loss_and_acc_on_epoch(val_loader, epoch_index, train=False)  # expect: PP503 medium
            print(train_loss, val)

    def loss_and_acc_on_epoch(self, data_loader, epoch_num=None, train=True):
        losses = []
        for batch in data_loader:
            batch_data = self.process_batch_data(batch)
            self.optimizer.zero_grad()
            loss, accuracy = self.loss_and_acc_for_batch(batch_data, epoch_num, train=train)
            if train:
                loss.backward()
                self.optimizer.step()
            losses.append(loss.detach())
        return torch.stack(losses).mean()

    def loss_and_acc_for_batch(self, batch, epoch_num=None, train=True):
        raise NotImplementedError

    def process_batch_data(self, batch):
        raise NotImplementedError
