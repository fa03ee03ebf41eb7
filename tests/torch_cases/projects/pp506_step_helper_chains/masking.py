"""A look-ahead mask built on the host and cast on its way to the device, from a def the training step of
another module runs through `create_mask` (music-transformer, torch-fix103)."""

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def create_padding_mask(inp, pad_token=0):
    return torch.eq(inp, pad_token).float()[:, None, None, :].to(inp.device)


def create_look_ahead_mask(seq_len):
    mask = torch.triu(torch.ones(seq_len, seq_len), diagonal=1)
    return mask.float().to(device)  # expect: PP506


def create_mask(inp):
    return torch.max(create_padding_mask(inp), create_look_ahead_mask(inp.shape[-1]))
