"""PyTorch: the loss sum and the confusion counts kept on the device, the F1 computed from them once, after the
loop: one copy to the host per epoch."""

import torch
from torch import nn

from ppbench import probe

torch.set_num_threads(1)  # one intra-op thread: the case measures the PP, not the machine's parallelism
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(32, 10).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(1024, 32, device=device), torch.randint(0, 10, (1024,), device=device)
loss_sum = torch.zeros((), device=device)
confusion = torch.zeros(100, dtype=torch.long, device=device)  # true * 10 + predicted
with probe.section():
    for _step in probe.steps(probe.count(200)):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_sum += loss.detach()
        confusion += torch.bincount(y * 10 + logits.argmax(dim=1), minlength=100)
    counts = confusion.view(10, 10).double()
    hits = counts.diag()
    f1 = (2 * hits / (counts.sum(0) + counts.sum(1)).clamp(min=1)).mean()
    mean_loss, macro_f1 = loss_sum.item() / probe.count(200), f1.item()
print(f"mean loss {mean_loss:.4f}, macro F1 {macro_f1:.3f}")
