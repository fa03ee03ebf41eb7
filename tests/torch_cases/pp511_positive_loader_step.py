import torch


def fit(model, train_loader, optimizer, device, epochs):
    model.train()
    for _ in range(epochs):
        for i, (images, labels) in enumerate(train_loader):
            images, labels = images.to(device), labels.to(device)
            loss = torch.nn.functional.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward(retain_graph=True)  # expect: PP511 medium
            optimizer.step()
            if i % 100 == 0:
                print(i)


def invert(model, target, steps, device):
    x = torch.randn(1, 3, 32, 32, device=device, requires_grad=True)
    optimizer = torch.optim.Adam([x], lr=0.1)
    for _ in range(steps):
        loss = torch.nn.functional.mse_loss(model(x), target)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)  # expect: PP511 low
        optimizer.step()
    return x.detach()
