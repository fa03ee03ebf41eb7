import torch


def validate(model, val_loader, criterion, device):
    model.eval()
    total, correct = 0, 0
    for images, target in val_loader:
        images, target = images.to(device), target.to(device)
        output = model(images)  # expect: PP503 high
        correct += (output.argmax(1) == target).sum().item()  # expect: PP501
        total += target.size(0)
    return correct / total


class Trainer:
    def __init__(self, net, loaders):
        self.net = net
        self.loaders = loaders

    def test(self):
        predictions = []
        for x, _ in self.loaders["test"]:
            predictions.append(self.net(x).softmax(-1))  # expect: PP503
        return torch.cat(predictions)


def train_and_check(model, train_loader, val_loader, optimizer, criterion):
    model.train()
    for x, y in train_loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    model.eval()
    val_loss = 0.0
    for x, y in val_loader:
        val_loss += criterion(model(x), y).item()  # expect: PP503 high  # expect: PP501
    return val_loss
