import torch
from torchvision import datasets

device = torch.device("cuda")


class MNIST(datasets.MNIST):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.data, self.targets = self.data.float().to(device), self.targets.to(device)

    def __getitem__(self, index):
        return self.data[index], self.targets[index]
