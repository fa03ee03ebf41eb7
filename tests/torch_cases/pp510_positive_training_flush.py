import torch


def train(model, loader, optimizer, criterion, epochs):
    for _epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            if torch.cuda.is_available():
                torch.cuda.empty_cache()  # expect: PP510 high


def release(model):
    torch.cuda.empty_cache()


def train_with_helper(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x.cuda()), y.cuda()).backward()
        optimizer.step()
        release(model)  # expect: PP510
