"""Loss helpers the training loop calls every step, silent: one reads the total only under a logging switch,
and one converts the learning rate, a Python number, not a loss."""

import torch
import torch.nn.functional as F


class Coach:
    def __init__(self, net, opts, loader):
        self.net = net.to("cuda:0")
        self.opts = opts
        self.loader = loader
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=opts.lr)

    def train(self):
        for x, y in self.loader:
            x, y = x.to("cuda:0"), y.to("cuda:0")
            self.optimizer.zero_grad()
            y_hat = self.net(x)
            loss = self.calc_loss(y, y_hat)
            loss.backward()
            self.optimizer.step()
            self.record()

    def calc_loss(self, y, y_hat):
        loss = F.mse_loss(y_hat, y)
        if self.opts.verbose:
            print("loss", float(loss))
        return loss

    def record(self):
        rate = self.optimizer.param_groups[0]["lr"]
        self.history.append(float(rate))
