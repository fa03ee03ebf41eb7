import torch

device = torch.device("cpu")  # a CPU-only script: reading a value costs no wait
model = torch.nn.Linear(1000, 10).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
x = torch.randn(64, 1000, device=device)
y = torch.randn(64, 10, device=device)
for t in range(500):
    loss = torch.nn.functional.mse_loss(model(x), y)
    print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
