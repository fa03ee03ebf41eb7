import torch
import torch.nn as nn
from data_provider.data_factory import data_provider


class Exp_Main:
    def __init__(self, args, model):
        self.args = args
        self.device = torch.device("cuda:0")
        self.model = model.to(self.device)

    def _get_data(self, flag):
        data_set, data_loader = data_provider(self.args, flag)
        return data_set, data_loader

    def train(self, setting):
        train_data, train_loader = self._get_data(flag="train")
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.args.learning_rate)
        criterion = nn.MSELoss()
        for _epoch in range(self.args.train_epochs):
            self.model.train()
            for _i, (batch_x, batch_y) in enumerate(train_loader):
                optimizer.zero_grad()
                batch_x = batch_x.float().to(self.device)
                batch_y = batch_y.float().to(self.device)
                loss = criterion(self.model(batch_x), batch_y)
                loss.backward()
                optimizer.step()
        return self.model
