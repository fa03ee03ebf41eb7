"""(torch-fix82) A loop inside a def a training step runs (a `forward`, a loss) runs on every call, so a
tensor made on the host and copied to the device in it takes the def's level, not the `low` of a loop that
steps nothing: `medium` for `.to(DEVICE)`, `high` for an unconditional `.cuda()`. A loop of an evaluation
script at the module's level keeps `low`.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn

DEVICE = torch.device("cuda")


class GraphConv(nn.Module):
    def __init__(self, k, f_in, f_out):
        super().__init__()
        self.k = k
        self.theta = nn.Parameter(torch.randn(k, f_in, f_out))

    def forward(self, x, supports):
        b, n, _ = x.shape
        outputs = []
        for support in supports:
            out = torch.zeros(b, n, self.theta.size(-1)).to(DEVICE)  # expect: PP506 high
            outputs.append(out + support.matmul(x).matmul(self.theta[0]))
        return torch.stack(outputs, dim=-1)


class TransportLoss(nn.Module):
    def forward(self, densities, points):
        loss = 0
        for density, point in zip(densities, points, strict=True):
            weight = torch.ones(len(point)).cuda() / len(point)  # expect: PP506 high
            loss = loss + (density.sum() - weight.sum()) ** 2
        return loss


model = GraphConv(3, 8, 8).to(DEVICE)
criterion = TransportLoss()
opt = torch.optim.Adam(model.parameters())
for x, cheb, points in torch.load("train.pt"):
    x, cheb = x.to(DEVICE), cheb.to(DEVICE)
    loss = criterion(model(x, cheb), points)
    opt.zero_grad()
    loss.backward()
    opt.step()

for x, _ in torch.load("test.pt"):
    scale = torch.ones(x.size(0)).to(DEVICE)  # expect: PP506 low
    print(scale.sum())
