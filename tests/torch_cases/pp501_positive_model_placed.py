"""A model whose class is given the device (`PTune(args, self.device)`) places itself and its inputs: a loop
over the loader that moves no batch still runs on the GPU."""

import torch
from modeling import PTune
from torch.utils.data import DataLoader


class Trainer:
    def __init__(self, args, train_set):
        self.args = args
        self.device = "cuda:0"
        self.model = PTune(args, self.device)
        self.train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=4)

    def train(self):
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.args.lr)
        for _ in range(self.args.epochs):
            tot_loss = 0
            for batch in self.train_loader:
                loss, hit1 = self.model(batch[0], batch[1])
                tot_loss += loss.item()  # expect: PP501
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
        return tot_loss
