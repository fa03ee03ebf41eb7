import torch
from dataset.trainer_dataset import TrainerDataset
from easydict import EasyDict
from training.model import TrainerModel


class Trainer(TrainerModel, TrainerDataset):
    def train_loop(self):
        iterator = self.datasets.dataloader_train.__iter__()
        for data in iterator:
            self.data = EasyDict(data)
            self.data.points = self.data.points.to(self.opt.device)
            loss = self.network(self.data.points, self.template).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    def save_network(self, path):
        torch.save(self.network.state_dict(), path)
