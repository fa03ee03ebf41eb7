import torch
from torch.utils.data import DataLoader
from utils import ImageListDataset, PredictDataset


class TabularModel:
    def __init__(self, network, batch_size=1024):
        self.network = network
        self.batch_size = batch_size

    @torch.no_grad()
    def predict(self, X):
        self.network.eval()
        dataloader = DataLoader(PredictDataset(X), batch_size=self.batch_size, pin_memory=True)
        results = []
        for data in dataloader:
            results.append(self.network(data.to("cuda").float()).detach())
        return torch.cat(results)

    @torch.no_grad()
    def predict_images(self, paths):
        self.network.eval()
        dataloader = DataLoader(ImageListDataset(paths), batch_size=self.batch_size, pin_memory=True)
        results = []
        for data in dataloader:
            results.append(self.network(data.to("cuda")).detach())
        return torch.cat(results)
