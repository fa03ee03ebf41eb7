import torch
from torch.autograd import Variable


def recursive_to(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.cuda(device=device, non_blocking=True)
    if isinstance(obj, list | tuple):
        return type(obj)(recursive_to(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: recursive_to(v, device) for k, v in obj.items()}
    return obj


def wrap(tensor, volatile=False):
    if torch.cuda.is_available():
        tensor = tensor.cuda()
    return Variable(tensor, volatile=volatile)
