import torch


class TwoStageModel:
    def __init__(self, net, opt):
        self.net = net.cuda()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=opt.lr)
        self.criterion = torch.nn.L1Loss()

    def _eval(self):
        self.net.eval()
        torch.cuda.empty_cache()

    def _train(self):
        self.net.train()

    def set_input(self, data):
        self.input = data["input"].cuda()
        self.target = data["target"].cuda()

    def backward(self):
        self.loss = self.criterion(self.net(self.input), self.target)
        self.loss.backward()

    def optimize_parameters(self):
        self.net.train()
        self.optimizer.zero_grad()
        self.backward()
        self.optimizer.step()

    def test(self):
        self._eval()
        with torch.no_grad():
            return self.net(self.input)
