"""A loader whose collate returns a group of batches (sorted by length), trained on by an inner loop: the step
loop's batches still come from the loader, which reads feature files in the main process (hold-out 4:
FastSpeech2). Each batch of the group is copied with `non_blocking=True` from pageable memory: PP505 too
(torch-fix128 follows a loop over the batch's items)."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class FeatureFiles(Dataset):
    def __init__(self, names):
        self.names = names

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        return torch.from_numpy(np.load(f"{self.names[i]}.npy"))

    def collate(self, items):
        return [torch.stack(items[k : k + 4]) for k in range(0, len(items), 4)]


def train(names, model, optimizer, device, epochs):
    dataset = FeatureFiles(names)
    loader = DataLoader(  # expect: PP504 high  # expect: PP505 high
        dataset, batch_size=64, shuffle=True, collate_fn=dataset.collate
    )
    for _ in range(epochs):
        for groups in loader:
            for batch in groups:
                loss = model(batch.to(device, non_blocking=True)).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
