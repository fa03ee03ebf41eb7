"""Clean twin of pp501_positive_evaluation_split.py: the test pass over `testing_data_loader` sums its
errors on the device and reads the total once after the loop; a loop over the training loader that reads
nothing is no evaluation; a robust test pass over the test loader that runs an attack (`attack_pgd`, AWP's
shape) is not judged by its loader's name (`_attacks`). Nothing to report."""

import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")
net = torch.nn.Conv2d(3, 3, 3, padding=1).to(device)
criterion = torch.nn.MSELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=2e-4)
training_data_loader = DataLoader(
    torch.load("train.pt"), batch_size=4, shuffle=True, num_workers=4, pin_memory=True
)
testing_data_loader = DataLoader(torch.load("test.pt"), batch_size=1, num_workers=4, pin_memory=True)

for _epoch in range(100):
    for batch in training_data_loader:
        x, y = batch[0].to(device), batch[1].to(device)
        optimizer.zero_grad()
        loss = criterion(net(x), y)
        loss.backward()
        optimizer.step()

    total = torch.zeros((), device=device)
    for batch in testing_data_loader:
        x, y = batch[0].to(device), batch[1].to(device)
        total += criterion(net(x), y).detach()
    print(total.item() / len(testing_data_loader))


def attack_pgd(model, x, y, epsilon=8 / 255, alpha=2 / 255, iters=10):
    delta = torch.zeros_like(x, requires_grad=True)
    for _ in range(iters):
        loss = criterion(model(x + delta), y)
        loss.backward()
        delta.data = (delta + alpha * delta.grad.sign()).clamp(-epsilon, epsilon)
        delta.grad.zero_()
    return delta.detach()


def robustness(model):
    robust_loss = 0
    for x, y in testing_data_loader:
        x, y = x.to(device), y.to(device)
        delta = attack_pgd(model, x, y)
        robust_loss += criterion(model(x + delta), y).item()
    return robust_loss / len(testing_data_loader)
