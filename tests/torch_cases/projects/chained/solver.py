import torch
import torch.nn.functional as F


class Solver:
    def __init__(self, config, train_loader, valid_loader):
        self.train_loader = train_loader
        self.valid_loader = valid_loader
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.net = config.build().to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), config.lr)

    def train(self):
        for _epoch in range(100):
            for images, gt in self.train_loader:
                images, gt = images.to(self.device), gt.to(self.device)
                loss = F.binary_cross_entropy_with_logits(self.net(images), gt)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
