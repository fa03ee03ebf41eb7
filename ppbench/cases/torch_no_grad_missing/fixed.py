"""PyTorch: the same evaluation loop under torch.no_grad(): no graph is recorded, nothing is saved for backward."""

import torch
from torch import nn

from ppbench import probe

torch.set_num_threads(1)  # one intra-op thread: the case measures the PP, not the machine's parallelism
torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(64, 1024), nn.GELU(), nn.LayerNorm(1024), nn.Tanh(), nn.SiLU(), nn.Linear(1024, 10)
)
batches = [torch.randn(1024, 64) for _ in range(probe.count(25))]
model.eval()
with probe.section(), torch.no_grad():
    outputs = [model(batch) for batch in batches]
    predictions = torch.cat(outputs).argmax(dim=1)
