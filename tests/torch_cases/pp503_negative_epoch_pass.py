import torch
import torch.nn.functional as F


def train(net, train_loader, test_loader, optimizer, epochs, device):
    for epoch in range(epochs):
        for data, target in train_loader:
            loss = F.cross_entropy(net(data.to(device)), target.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        correct = 0
        with torch.no_grad():
            for data, target in test_loader:
                logits = net(data.to(device))
                correct += logits.argmax(dim=1).eq(target.to(device)).sum().item()  # expect: PP501
        print(epoch, correct)


def features(loader, model, device):
    return [model.encode(img.to(device)) for img, _ in loader]


def finetune(loader, model, optimizer, device):
    for img, label in loader:
        loss = F.cross_entropy(model(img.to(device)), label.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(model, loader, optimizer, device):
    model.train()
    feats = features(loader, model, device)  # the model is in training mode here
    model.eval()
    finetune(loader, model, optimizer, device)  # it steps: gradients are needed
    return feats
