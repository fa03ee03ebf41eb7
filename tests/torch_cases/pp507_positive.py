import torch.nn as nn
import torch.optim as optim
from torch.optim import Adam


def train(model, loader, device, epochs=10, lr=0.01):
    for _epoch in range(epochs):
        optimizer = optim.SGD(model.parameters(), lr=lr, momentum=0.9)  # expect: PP507 low
        model.train()
        for x, y in loader:
            criterion = nn.CrossEntropyLoss()  # expect: PP507 high
            model.to(device)  # expect: PP507
            optimizer.zero_grad()
            criterion(model(x.to(device)), y.to(device)).backward()
            optimizer.step()


def finetune(net, batches):
    for x, y in batches:
        opt = Adam(net.parameters())  # expect: PP507
        loss = nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
