"""A model whose class is given the CPU places nothing: a loop over the loader that moves no batch runs there."""

import torch
from modeling import PTune
from torch.utils.data import DataLoader


class CpuTrainer:
    def __init__(self, args, train_set):
        self.args = args
        self.model = PTune(args, "cpu")
        self.train_loader = DataLoader(train_set, batch_size=args.batch_size, num_workers=4)

    def train(self):
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.args.lr)
        tot_loss = 0
        for batch in self.train_loader:
            loss, hit1 = self.model(batch[0], batch[1])
            tot_loss += loss.item()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        return tot_loss
