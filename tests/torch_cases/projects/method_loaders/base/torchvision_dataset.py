from torch.utils.data import DataLoader

from .base_dataset import BaseADDataset


class TorchvisionDataset(BaseADDataset):
    def loaders(self, batch_size, shuffle_train=True, shuffle_test=False, num_workers=0):
        train_loader = DataLoader(  # expect: PP505
            dataset=self.train_set, batch_size=batch_size, shuffle=shuffle_train, num_workers=num_workers
        )
        test_loader = DataLoader(  # expect: PP505
            dataset=self.test_set, batch_size=batch_size, shuffle=shuffle_test, num_workers=num_workers
        )
        return train_loader, test_loader
