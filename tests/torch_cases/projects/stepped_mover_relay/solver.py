import torch


class Solver:
    def __init__(self, model, loader, epochs):
        self.dagmm = model
        self.loader = loader
        self.epochs = epochs
        self.optimizer = torch.optim.Adam(self.dagmm.parameters(), lr=1e-4)

    def train(self):
        for _epoch in range(self.epochs):
            for x, x_hat, z, mu, cov in self.loader:
                loss = self.dagmm.loss_function(x, x_hat, z, mu, cov, 0.1)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
