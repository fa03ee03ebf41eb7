"""A coach class whose training loop calls its own loss helper every step; the helper reads each active term
and the total with `float(...)` for the log dict (hold-out 17's pixel2style2pixel `Coach.calc_loss`): the
total's read is outside any `if`, so it runs every step."""

import torch
import torch.nn.functional as F


class Coach:
    def __init__(self, net, opts, loader):
        self.net = net.to("cuda:0")
        self.opts = opts
        self.loader = loader
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=opts.lr)

    def train(self):
        self.net.train()
        for x, y in self.loader:
            x, y = x.to("cuda:0").float(), y.to("cuda:0").float()
            self.optimizer.zero_grad()
            y_hat = self.net(x)
            loss, loss_dict = self.calc_loss(y, y_hat)
            loss.backward()
            self.optimizer.step()

    def calc_loss(self, y, y_hat):
        loss_dict = {}
        loss = 0.0
        if self.opts.l2_lambda > 0:
            loss_l2 = F.mse_loss(y_hat, y)
            loss_dict["loss_l2"] = float(loss_l2)
            loss += loss_l2 * self.opts.l2_lambda
        loss_dict["loss"] = float(loss)  # expect: PP501
        return loss, loss_dict
