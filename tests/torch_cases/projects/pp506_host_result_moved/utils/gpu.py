import torch


def on_gpu(tensor):
    if torch.cuda.is_available():
        tensor = tensor.cuda()
    return tensor
