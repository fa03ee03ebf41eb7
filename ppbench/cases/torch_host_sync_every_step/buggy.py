"""PyTorch: training-loop metrics brought to the host every step: loss.item() and the predictions copied out
(.cpu().numpy()) for scikit-learn's F1; on a GPU each copy waits for the device, on any device each step pays the
copies and the host-side metric."""

import torch
from sklearn.metrics import f1_score
from torch import nn

from ppbench import probe

torch.set_num_threads(1)  # one intra-op thread: the case measures the PP, not the machine's parallelism
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(32, 10).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(1024, 32, device=device), torch.randint(0, 10, (1024,), device=device)
losses, f1s = [], []
with probe.section():
    for _step in probe.steps(probe.count(200)):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        f1s.append(f1_score(y.cpu().numpy(), logits.argmax(dim=1).cpu().numpy(), average="macro"))
print(f"mean loss {sum(losses) / len(losses):.4f}, mean macro F1 {sum(f1s) / len(f1s):.3f}")
