"""(torch-fix86) A mask made on the host at one line, filled row by row, then reshaped and copied in one
expression (`mask.unsqueeze(1).unsqueeze(3).to(self.device)`): the finding names the line that made it. An
`np.array(range(n))` grid copied every forward is reported as `np.arange(n)` is, and so is
`nn.Transformer.generate_square_subsequent_mask(n)` moved without `device=`.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import numpy as np
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, dim, max_disp, device):
        super().__init__()
        self.device = device
        self.max_disp = max_disp
        self.transformer = nn.Transformer(d_model=dim, nhead=4)
        self.out = nn.Linear(dim, 1)

    def make_masks(self, atom_num, compound_max_len):
        n = len(atom_num)
        compound_mask = torch.zeros((n, compound_max_len))
        for i in range(n):
            compound_mask[i, : atom_num[i]] = 1
        compound_mask = compound_mask.unsqueeze(1).unsqueeze(3).to(self.device)  # expect: PP506 high
        return compound_mask

    def forward(self, x, atom_num):
        mask = self.make_masks(atom_num, x.size(1))
        causal = self.transformer.generate_square_subsequent_mask(x.size(1)).to(self.device)  # expect: PP506 high  # fmt: skip
        grid = np.reshape(np.array(range(self.max_disp)), [1, self.max_disp, 1])
        disp = torch.Tensor(grid).cuda()  # expect: PP506 high
        h = self.transformer.encoder(x, mask=causal)
        return self.out(h * mask.squeeze(-1).squeeze(1)[..., None]) * disp.mean()
