from torch.utils.data import DataLoader as TorchDataLoader

from .features import FeatureDataset


class DataLoader(TorchDataLoader):
    # a loader with its own iteration (prefetching to the GPU itself): not torch's, left alone
    def __init__(self, dataset, *args, **kwargs):
        super().__init__(dataset, *args, collate_fn=dataset.collate_fn(), **kwargs)

    def __iter__(self):
        for features, targets in super().__iter__():
            yield features.pin_memory(), targets.pin_memory()


__all__ = ["DataLoader", "FeatureDataset"]
