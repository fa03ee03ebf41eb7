import torch


def train(model, loader, optimizer, criterion, epochs):
    for _epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            x, y = x.cuda(), y.cuda()
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            if step % 500 == 0:
                torch.cuda.empty_cache()  # every 500 steps: rare enough
        torch.cuda.empty_cache()  # once per epoch
