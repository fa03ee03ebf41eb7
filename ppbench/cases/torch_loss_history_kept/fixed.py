"""PyTorch: the validation loss summed as a Python number (.item()): each batch's graph is freed at once."""

import torch
from torch import nn

from ppbench import probe

torch.set_num_threads(1)  # one intra-op thread: the case measures the PP, not the machine's parallelism
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 512), nn.Tanh(), nn.Linear(512, 512), nn.Tanh(), nn.Linear(512, 1))
batches = [(torch.randn(512, 32), torch.randn(512, 1)) for _ in range(probe.count(60))]
val_loss = 0
with probe.section():
    for step in probe.steps(len(batches)):
        x, y = batches[step]
        val_loss += nn.functional.mse_loss(model(x), y).item()
print(f"validation loss {val_loss / len(batches):.4f}")
