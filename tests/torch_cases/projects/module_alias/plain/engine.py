"""A loop that moves nothing to the device: the loader it is given needs no pinned memory."""

import torch


def summarize(data_loader):
    return torch.tensor([len(batch) for batch in data_loader]).sum()
