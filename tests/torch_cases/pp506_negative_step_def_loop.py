"""(torch-fix82) The clean twin of `pp506_positive_step_def_loop.py`: the per-step tensors are made on the
device (`device=`), so the loops in the `forward` and the loss copy nothing."""

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
            out = torch.zeros(b, n, self.theta.size(-1), device=x.device)
            outputs.append(out + support.matmul(x).matmul(self.theta[0]))
        return torch.stack(outputs, dim=-1)


class TransportLoss(nn.Module):
    def forward(self, densities, points):
        loss = 0
        for density, point in zip(densities, points, strict=True):
            weight = torch.ones(len(point), device=density.device) / len(point)
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
