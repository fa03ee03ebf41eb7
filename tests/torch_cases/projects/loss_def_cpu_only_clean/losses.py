"""review22 item 2: a loss def returning `loss.item()` in a project whose every module stays on the CPU
(no cuda call, no move to a device): its read waits for no GPU."""

import torch.nn.functional as F


def compute_loss(model, x, y):
    out = model(x)
    loss = F.cross_entropy(out, y)
    return loss, {"loss": loss.item()}
