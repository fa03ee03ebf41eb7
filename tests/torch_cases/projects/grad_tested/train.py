"""torch-fix104: a gradient-norm helper the training loop calls after every backward, reading each
parameter's norm on the host under `if p.grad is not None:` (spiking-continual-learning's
`_grad_global_norm`): every trained parameter passes the test, so the read runs on every step."""

import torch
import torch.nn.functional as F


@torch.no_grad()
def _grad_global_norm(params) -> float:
    total = 0.0
    for p in params:
        if p.grad is not None:
            total += float(p.grad.detach().norm().item()) ** 2  # expect: PP501
    return total**0.5


def train(model, optimizer, X, y, batch_size, device):
    model.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    norms = []
    for s in range(0, len(X), batch_size):
        xb, yb = X[s : s + batch_size].to(device), y[s : s + batch_size].to(device)
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        norms.append(_grad_global_norm(params))
        optimizer.step()
    return norms
