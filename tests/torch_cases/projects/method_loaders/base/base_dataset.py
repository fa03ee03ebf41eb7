from abc import ABC, abstractmethod


class BaseADDataset(ABC):
    """Anomaly-detection data sets: each gives its own loaders."""

    def __init__(self, root):
        self.root = root
        self.train_set = None
        self.test_set = None

    @abstractmethod
    def loaders(self, batch_size, shuffle_train=True, shuffle_test=False, num_workers=0):
        """The train and test DataLoaders."""
        pass
