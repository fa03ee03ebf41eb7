import torch
from losses import compute_loss


def main():
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(100):
        x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))
        loss, logs = compute_loss(model, x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
