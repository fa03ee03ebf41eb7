"""(torch-fix86) The clean twin of pp506_positive_chained_mask.py: the mask made on the device, the causal mask
given `device=`, the disparity range made once in `__init__` as a buffer, and the module's own
`generate_square_subsequent_mask` building on the device of its input."""

import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, dim, max_disp, device):
        super().__init__()
        self.device = device
        self.transformer = nn.Transformer(d_model=dim, nhead=4)
        self.out = nn.Linear(dim, 1)
        self.register_buffer("disp", torch.arange(max_disp, dtype=torch.float32).view(1, max_disp, 1))

    def generate_square_subsequent_mask(self, n, like):
        return torch.triu(torch.ones(n, n, device=like.device), diagonal=1).bool()

    def make_masks(self, atom_num, compound_max_len):
        lengths = torch.as_tensor(atom_num, device=self.device)
        compound_mask = torch.arange(compound_max_len, device=self.device)[None] < lengths[:, None]
        compound_mask = compound_mask.float().unsqueeze(1).unsqueeze(3).to(self.device)
        return compound_mask

    def forward(self, x, atom_num):
        mask = self.make_masks(atom_num, x.size(1))
        causal = self.transformer.generate_square_subsequent_mask(x.size(1), device=x.device)
        own = self.generate_square_subsequent_mask(x.size(1), x).to(self.device)
        h = self.transformer.encoder(x, mask=causal | own)
        return self.out(h * mask.squeeze(-1).squeeze(1)[..., None]) * self.disp.mean()
