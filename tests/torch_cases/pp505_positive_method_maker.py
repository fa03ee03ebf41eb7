"""Informer's shape: a method returns (dataset, loader); batches reach the device in a helper."""

import torch
import torch.nn as nn
from data.data_loader import Dataset_ETT_hour
from torch.utils.data import DataLoader


class Exp_Informer:
    def __init__(self, args, model):
        self.args = args
        self.device = torch.device("cuda:0")
        self.model = model.to(self.device)

    def _get_data(self, flag):
        data_set = Dataset_ETT_hour(root_path=self.args.root_path, flag=flag)
        data_loader = DataLoader(  # expect: PP505 medium
            data_set,
            batch_size=self.args.batch_size,
            shuffle=flag == "train",
            num_workers=self.args.num_workers,
        )
        return data_set, data_loader

    def _process_one_batch(self, batch_x, batch_y):
        batch_x = batch_x.float().to(self.device)
        batch_y = batch_y.float().to(self.device)
        return self.model(batch_x), batch_y

    def train(self):
        train_data, train_loader = self._get_data(flag="train")
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.args.learning_rate)
        criterion = nn.MSELoss()
        for _ in range(self.args.train_epochs):
            for batch_x, batch_y in train_loader:
                optimizer.zero_grad()
                pred, true = self._process_one_batch(batch_x, batch_y)
                loss = criterion(pred, true)
                loss.backward()
                optimizer.step()
        return self.model
