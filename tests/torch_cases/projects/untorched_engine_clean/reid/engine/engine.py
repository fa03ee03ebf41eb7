"""The project's base engine: it imports torch and runs the loop; subclasses write `forward_backward`."""

import torch


class Engine:
    def __init__(self, model, optimizer, use_gpu=True):
        self.model = model
        self.optimizer = optimizer
        self.use_gpu = use_gpu and torch.cuda.is_available()

    def train(self, loader, meter):
        self.model.train()
        for data in loader:
            summary = self.forward_backward(data)
            meter.update(summary)

    def forward_backward(self, data):
        raise NotImplementedError
