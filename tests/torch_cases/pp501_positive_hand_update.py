# a hand-written update from the gradient rebinding the weight's own name (`w = w - lr * w.grad`) trains
# the model: its per-step read is a training step's log (medium: a toy-sized problem)
import torch

device = torch.device("cuda")
w = torch.randn(10, 1, device=device, requires_grad=True)
x = torch.randn(1000, 10, device=device)
y = torch.randn(1000, 1, device=device)
for step in range(10000):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w = w - 0.01 * w.grad
    w.requires_grad_()
    print(step, loss.item())  # expect: PP501 medium
