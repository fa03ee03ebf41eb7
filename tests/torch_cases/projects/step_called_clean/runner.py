import torch
from models import PairModel


class Runner:
    def __init__(self, config, loader):
        self.config = config
        self.loader = loader
        self.pair = PairModel(config.width).to(config.device)

    def train(self):
        for step, (inputs, targets) in enumerate(self.loader):
            inputs = inputs.to(self.config.device)
            targets = targets.to(self.config.device)
            outputs = self.pair.net(inputs)
            loss = torch.nn.functional.l1_loss(outputs, targets)
            self.pair.gen_opt.zero_grad()
            loss.backward()
            self.pair.gen_opt.step()
            if step % 100 == 0:
                outputs, gen_loss, dis_loss, logs = self.pair.process(inputs, targets)
                print(logs)
