"""PyTorch: a constant tensor (the class weights and the padding mask) built from Python lists on the CPU and moved
to the device inside the training loop, every step."""

import torch
from torch import nn

from ppbench import probe

torch.set_num_threads(1)  # one intra-op thread: the case measures the PP, not the machine's parallelism
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
class_weights = [1.0 + i / 10 for i in range(10)]
mask_rows = [[float((i + j) % 7 != 0) for j in range(128)] for i in range(256)]
x, y = torch.randn(256, 128, device=device), torch.randint(0, 10, (256,), device=device)
with probe.section():
    for _step in probe.steps(probe.count(100)):
        weights = torch.tensor(class_weights).to(device)
        mask = torch.tensor(mask_rows).to(device)
        loss = nn.functional.cross_entropy(model(x * mask), y, weight=weights)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
