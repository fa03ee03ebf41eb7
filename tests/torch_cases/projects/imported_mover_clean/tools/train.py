import torch


def recursive_float(obj):
    if isinstance(obj, torch.Tensor):
        return obj.float()
    if isinstance(obj, list | tuple):
        return type(obj)(recursive_float(o) for o in obj)
    return obj


def place(model, batch):
    model.cuda()
    return batch
