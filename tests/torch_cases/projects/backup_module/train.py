import torch
from networks import GridLocNet


def train(loader, points=25, epochs=10):
    model = GridLocNet(points).cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(epochs):
        for x, target in loader:
            x, target = x.cuda(), target.cuda()
            loss = torch.nn.functional.l1_loss(model(x), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
