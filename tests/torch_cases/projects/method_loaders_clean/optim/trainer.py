"""The trainer is handed the data set object and asks it for its loaders; the loops copy every batch."""

import torch
from base.base_dataset import BaseADDataset


class DeepSVDDTrainer:
    def __init__(self, c, lr=1e-3, n_epochs=150, batch_size=128, device="cuda", n_jobs_dataloader=0):
        self.c = c
        self.lr = lr
        self.n_epochs = n_epochs
        self.batch_size = batch_size
        self.device = device
        self.n_jobs_dataloader = n_jobs_dataloader

    def train(self, dataset: BaseADDataset, net):
        train_loader, _ = dataset.loaders(batch_size=self.batch_size, num_workers=self.n_jobs_dataloader)
        net = net.to(self.device)
        optimizer = torch.optim.Adam(net.parameters(), lr=self.lr)
        for _ in range(self.n_epochs):
            for data in train_loader:
                inputs, _, _ = data
                inputs = inputs.to(self.device)
                optimizer.zero_grad()
                dist = torch.sum((net(inputs) - self.c) ** 2, dim=1)
                loss = torch.mean(dist)
                loss.backward()
                optimizer.step()
        return net

    def test(self, dataset: BaseADDataset, net):
        _, test_loader = dataset.loaders(batch_size=self.batch_size, num_workers=self.n_jobs_dataloader)
        net = net.to(self.device)
        net.eval()
        scores = []
        with torch.no_grad():
            for data in test_loader:
                inputs, labels, idx = data
                inputs = inputs.to(self.device)
                scores.append(torch.sum((net(inputs) - self.c) ** 2, dim=1))
        return scores
