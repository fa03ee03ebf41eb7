import torch


class Summary:
    def __init__(self, config, loader):
        self.loader = loader
        self.device = torch.device("cuda")

    def show(self):
        total = 0
        for images, _ in self.loader:
            total += images.shape[0]
        print(total)
