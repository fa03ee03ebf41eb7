"""TorchIO patch loaders (hold-out 20's medical-segmentation shape): the training loader over a patch
`Queue` must have no workers (the queue runs its own), and inference batches the patches a `GridSampler`
cuts from one volume already loaded; the loader over the subjects themselves decodes a volume per item."""

import torch
import torchio as tio
from torch.utils.data import DataLoader


class PatchData:
    def __init__(self, subjects, patch_size):
        self.subjects = tio.SubjectsDataset(subjects, transform=tio.ZNormalization())
        sampler = tio.data.UniformSampler(patch_size)
        self.queue_dataset = tio.Queue(self.subjects, 64, 8, sampler, num_workers=4)


def step(model, optimizer, x, y):
    loss = torch.nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train(model, optimizer, subjects, patch_size):
    data = PatchData(subjects, patch_size)
    loader = DataLoader(data.queue_dataset, batch_size=4, shuffle=True, pin_memory=True)
    for batch in loader:
        step(model, optimizer, batch["image"]["data"].cuda(), batch["label"]["data"].cuda())


def train_whole_volumes(model, optimizer, subjects):
    volumes = tio.SubjectsDataset(subjects, transform=tio.ZNormalization())
    loader = DataLoader(volumes, batch_size=2, shuffle=True, pin_memory=True)  # expect: PP504
    for batch in loader:
        step(model, optimizer, batch["image"]["data"].cuda(), batch["label"]["data"].cuda())


def infer(model, subject, patch_size):
    grid = tio.inference.GridSampler(subject, patch_size, 4)
    aggregator = tio.inference.GridAggregator(grid)
    patches = DataLoader(grid, batch_size=8)  # expect: PP505 low
    with torch.no_grad():
        for batch in patches:
            aggregator.add_batch(model(batch["image"]["data"].cuda()), batch[tio.LOCATION])
    return aggregator.get_output_tensor()
