import torch
from flow.model import FlowNet


def train(loader, epochs):
    model = FlowNet().cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(epochs):
        for img, target in loader:
            img, target = img.cuda(), target.cuda()
            loss = (model(img) - target).abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
