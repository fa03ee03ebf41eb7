import torch.nn as nn
from torch import optim


class Trainer:
    def __init__(self, train_loader, restart_every):
        self.train_loader = train_loader
        self.restart_every = restart_every

    def train(self, net, epochs, lr):
        criterion = nn.CrossEntropyLoss().cuda()
        optimizer = optim.Adam(net.parameters(), lr=lr)
        step = 0
        for _ in range(epochs):
            for x, y in self.train_loader:
                step += 1
                if step % self.restart_every == 0:
                    optimizer = optim.Adam(net.parameters(), lr=lr)
                elif step % 7 == 0:
                    optimizer = optim.SGD(net.parameters(), lr=lr)
                optimizer.zero_grad()
                loss = criterion(net(x.cuda()), y.cuda())
                loss.backward()
                optimizer.step()
