import torch
from models import PairModel


class Runner:
    def __init__(self, config, loader):
        self.config = config
        self.loader = loader
        self.pair = PairModel(config.width).to(config.device)

    def train(self):
        mode = self.config.mode
        for inputs, targets in self.loader:
            inputs = inputs.to(self.config.device)
            targets = targets.to(self.config.device)
            if mode == 1:
                outputs, gen_loss, dis_loss, logs = self.pair.process(inputs, targets)
                self.pair.backward(gen_loss, dis_loss)
            print(len(logs), torch.cuda.is_available())
