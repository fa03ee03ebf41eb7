"""Clean twin of pp506_step_helper_chains (torch-fix103): the look-ahead mask made on the device, the causal
mask class built once in the layer's `__init__`, and an attack that makes its state with `device=`."""

import torch


def create_padding_mask(inp, pad_token=0):
    return torch.eq(inp, pad_token).float()[:, None, None, :]


def create_look_ahead_mask(seq_len, device):
    mask = torch.triu(torch.ones(seq_len, seq_len, device=device), diagonal=1)
    return mask.float()


def create_mask(inp):
    return torch.max(create_padding_mask(inp), create_look_ahead_mask(inp.shape[-1], inp.device))
