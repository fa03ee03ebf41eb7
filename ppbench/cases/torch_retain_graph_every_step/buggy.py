"""PyTorch: backward(retain_graph=True) on every step though no second backward needs the graph; each step's saved
activations stay alive until the next step's forward has built its own, so two graphs' worth is held at once."""

import torch
from torch import nn

from ppbench import probe

torch.set_num_threads(1)  # one intra-op thread: the case measures the PP, not the machine's parallelism
torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(64, 1024), *[nn.Sequential(nn.GELU(), nn.Tanh()) for _ in range(5)], nn.Linear(1024, 1)
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(4096, 64), torch.randn(4096, 1)
with probe.section():
    for _step in probe.steps(probe.count(4)):
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
