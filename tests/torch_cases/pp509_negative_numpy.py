import numpy as np
import torch

a = torch.arange(8, dtype=torch.float32)  # the tensor version, made in an earlier cell


def dot_spec(a, b):
    """A pure-Python reference for a GPU puzzle, checked against NumPy arrays."""
    tot = 0
    for i in range(len(a)):
        tot += a[i] * b[i]
    return tot


SIZE = 8
a = np.arange(SIZE, dtype=np.float32)
b = np.arange(SIZE, dtype=np.float32)
print(dot_spec(a, b))
