import torch.nn as nn
from torch import optim


class Trainer:
    def __init__(self, opt, train_loader, l2_decay, momentum):
        self.opt = opt
        self.train_loader = train_loader
        self.l2_decay = l2_decay
        self.momentum = momentum

    def noam_scheme(self, step, warmup=4000):
        return 0.001 * min(step**-0.5, step * warmup**-1.5)

    def train(self, net, epochs):
        criterion = nn.CrossEntropyLoss().cuda()
        step = 0
        for _ in range(epochs):
            for x, y in self.train_loader:
                step += 1
                lr = self.noam_scheme(step)
                if self.opt.lower() == "sgd":
                    optimizer = optim.SGD(net.parameters(), lr=lr)  # expect: PP507
                else:
                    optimizer = optim.Adam(net.parameters(), lr=lr)  # expect: PP507
                optimizer.zero_grad()
                loss = criterion(net(x.cuda()), y.cuda())
                loss.backward()
                optimizer.step()
