import torch


def get_alpha_beta(batch_size, device):
    alpha = torch.rand(batch_size).view(-1, 1, 1, 1).to(device)  # expect: PP506
    return alpha


def get_noise(batch_size, device, mode):
    if mode == "stratified":
        return torch.rand(batch_size).to(device)  # expect: PP506
    return None
