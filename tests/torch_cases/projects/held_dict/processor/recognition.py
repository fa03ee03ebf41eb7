import torch.nn as nn

from .processor import Processor


class REC_Processor(Processor):
    def train(self):
        self.model.train()
        loader = self.data_loader["train"]
        loss_value = []
        for data, label in loader:
            data = data.float().to(self.dev)
            label = label.long().to(self.dev)
            loss = nn.functional.cross_entropy(self.model(data), label)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            loss_value.append(loss.detach())
