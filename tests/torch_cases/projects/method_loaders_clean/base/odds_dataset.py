"""Another data set of the project whose `loaders` does its own thing: which class the trainer's object
has is not known, so the loaders are not followed."""

from .base_dataset import BaseADDataset


class ODDSADDataset(BaseADDataset):
    def loaders(self, batch_size, shuffle_train=True, shuffle_test=False, num_workers=0):
        return self.train_set.batches(batch_size), self.test_set.batches(batch_size)
