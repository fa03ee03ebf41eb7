"""Informer's causal mask: a plain class whose `__init__` makes the mask on the host and moves it, built by every
masked attention layer's `forward` when no mask is handed in (torch-fix103)."""

import torch


class TriangularCausalMask:
    def __init__(self, B, L, device="cpu"):
        mask_shape = [B, 1, L, L]
        with torch.no_grad():
            mask = torch.triu(torch.ones(mask_shape, dtype=torch.bool), diagonal=1)
            self._mask = mask.to(device)  # expect: PP506

    @property
    def mask(self):
        return self._mask
