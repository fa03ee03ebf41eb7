"""The helper wraps its argument but moves it only under a user's option that defaults to off, and the
training loop hands it the batch, which must be copied anyway."""

import torch
from torch.autograd import Variable


def make_variable(tensor, use_gpu=False):
    """Wrap a tensor."""
    if use_gpu:
        tensor = tensor.cuda()
    return Variable(tensor)


def make_cuda(tensor):
    """Move a batch to the GPU."""
    if torch.cuda.is_available():
        tensor = tensor.cuda()
    return tensor
