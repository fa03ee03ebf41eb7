"""Informer's shape: the validation loop's forward is in a method the loop calls for each batch."""

import numpy as np
import torch
import torch.nn as nn


class Exp_Informer:
    def __init__(self, args, model):
        self.args = args
        self.device = torch.device("cuda")
        self.model = model.to(self.device)

    def _process_one_batch(self, dataset_object, batch_x, batch_y):
        batch_x = batch_x.float().to(self.device)
        batch_y = batch_y.float()
        outputs = self.model(batch_x)
        batch_y = batch_y[:, -self.args.pred_len :, :].to(self.device)
        return outputs, batch_y

    def vali(self, vali_data, vali_loader, criterion):
        self.model.eval()
        total_loss = []
        for batch_x, batch_y in vali_loader:
            pred, true = self._process_one_batch(vali_data, batch_x, batch_y)  # expect: PP503 high
            loss = criterion(pred.detach().cpu(), true.detach().cpu())
            total_loss.append(loss)
        self.model.train()
        return np.average(total_loss)

    def train(self, train_data, train_loader, vali_data, vali_loader):
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.args.learning_rate)
        criterion = nn.MSELoss()
        for _ in range(self.args.train_epochs):
            self.model.train()
            for batch_x, batch_y in train_loader:
                optimizer.zero_grad()
                pred, true = self._process_one_batch(train_data, batch_x, batch_y)
                loss = criterion(pred, true)
                loss.backward()
                optimizer.step()
            self.vali(vali_data, vali_loader, criterion)
