import numpy as np
import torch


def to_float(value):
    if isinstance(value, float):
        return value
    elif isinstance(value, torch.Tensor):
        return value.data.item()
    raise TypeError(type(value))


def to_numpy(value):
    if isinstance(value, np.ndarray):
        return value
    elif isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy()
    raise TypeError(type(value))
