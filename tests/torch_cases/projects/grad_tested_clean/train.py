"""torch-fix104: the same helper run only every N-th step, and a helper whose test is on something other
than the loop's parameter (a setting), which this shape does not cover."""

import torch
import torch.nn.functional as F


@torch.no_grad()
def _grad_global_norm(params) -> float:
    total = 0.0
    for p in params:
        if p.grad is not None:
            total += float(p.grad.detach().norm().item()) ** 2
    return total**0.5


def train(model, optimizer, X, y, batch_size, device, log_every=50):
    model.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    norms = []
    for step, s in enumerate(range(0, len(X), batch_size)):
        xb, yb = X[s : s + batch_size].to(device), y[s : s + batch_size].to(device)
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if step % log_every == 0:
            norms.append(_grad_global_norm(params))
        optimizer.step()
    return norms
