import torch
from torch import nn


class Framework(nn.Module):
    def __init__(self, batch_size):
        super().__init__()
        self.batch_size = batch_size
        self.optim = None

    def run_train(self, train_data):
        self.optim = torch.optim.Adam(self.parameters())
        losses = []
        for start in range(0, len(train_data), self.batch_size):
            mini_batch = train_data[start : start + self.batch_size]
            self.optim.zero_grad()
            loss = self.loss(mini_batch)
            loss["model_loss"].backward()
            self.optim.step()
            losses.append(loss["print_loss"])
        return losses

    def loss(self, mini_batch):
        raise NotImplementedError
