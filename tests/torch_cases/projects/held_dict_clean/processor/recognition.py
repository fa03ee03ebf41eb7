import torch
import torch.nn as nn

from .processor import Processor


class Other:
    def __init__(self, data_loader):
        self.data_loader = data_loader


class REC_Processor(Processor):
    def train(self):
        self.model.train()
        loader = self.data_loader["train"]
        # the model runs on the host: nothing is copied to a GPU
        for data, label in loader:
            loss = nn.functional.cross_entropy(self.model(data.float()), label.long())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()


@torch.no_grad()
def evaluate(model, data_loader):
    # a `data_loader` of another holder, not of a Processor
    holder = Other(data_loader)
    for data, label in holder.data_loader["train"]:
        print((model(data.to("cuda")).argmax(1) == label.to("cuda")).float().mean())
