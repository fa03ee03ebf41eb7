"""(torch-fix58) A project helper that wraps its argument and moves it under a GPU test: called with a factory's
tensor in another module's training loop, each call copies a host tensor to the GPU."""

import torch
from torch.autograd import Variable


def make_variable(tensor, volatile=False):
    """Wrap a tensor, on the GPU when there is one."""
    if torch.cuda.is_available():
        tensor = tensor.cuda()
    return Variable(tensor, volatile=volatile)
