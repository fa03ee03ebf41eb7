from torch.utils.data import DataLoader as TorchDataLoader

from .features import FeatureDataset


class DataLoader(TorchDataLoader):
    # adds the data set's own collate and keeps torch's iteration: pin_memory=True would still pin
    def __init__(self, dataset, *args, **kwargs):
        super().__init__(dataset, *args, collate_fn=dataset.collate_fn(), **kwargs)


__all__ = ["DataLoader", "FeatureDataset"]
