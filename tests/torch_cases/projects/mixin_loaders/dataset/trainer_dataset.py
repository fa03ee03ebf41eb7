"""A trainer's data mixin (AtlasNet's shape): the loaders live on an EasyDict attribute of the instance."""

from dataset.shapenet import ShapeNet
from easydict import EasyDict
from torch.utils.data import DataLoader


class TrainerDataset:
    def build_dataset(self):
        self.datasets = EasyDict()
        self.datasets.dataset_train = ShapeNet(self.opt, train=True)
        train = self.datasets.dataset_train
        self.datasets.dataloader_train = DataLoader(train, batch_size=32, num_workers=4)  # expect: PP505
