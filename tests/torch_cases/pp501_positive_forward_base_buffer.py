"""LSQ-style quantisers: the base class registers the `init_state` buffer, and the activation quantiser that
derives from it tests `self.init_state == 0` in every forward, which takes the truth of a device tensor
(review 28 item 5). A plain Python flag set by the base is a host value (the control)."""

import torch
import torch.nn as nn

device = torch.device("cuda")


class QuantBase(nn.Module):
    def __init__(self, bits=8):
        super().__init__()
        self.bits = bits
        self.mode = 0
        self.alpha = nn.Parameter(torch.ones(1))
        self.register_buffer("init_state", torch.zeros(1))


class ActQ(QuantBase):
    def forward(self, x):
        if self.training and self.init_state == 0:  # expect: PP501 medium
            self.alpha.data.copy_(2 * x.abs().mean() / (2 ** (self.bits - 1)) ** 0.5)
            self.init_state += 1
        return torch.round(x / self.alpha).clamp(-128, 127) * self.alpha


class WeightQ(QuantBase):
    def forward(self, x):
        if self.mode == 0:
            return x
        return torch.round(x / self.alpha) * self.alpha


model = nn.Sequential(nn.Linear(8, 8), ActQ(), WeightQ(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in torch.utils.data.DataLoader(torch.randn(64, 8), batch_size=8, num_workers=2):
    loss = model(x.to(device)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
