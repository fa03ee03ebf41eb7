import torch.nn.functional as F
from tqdm import tqdm


def train(net, train_loader, test_loader, optimizer, epochs, device):
    for epoch in range(epochs):
        for data, target in train_loader:
            logits = net(data.to(device))
            loss = F.cross_entropy(logits, target.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        correct = 0
        for data, target in test_loader:
            logits = net(data.to(device))  # expect: PP503
            correct += logits.argmax(dim=1).eq(target.to(device)).sum().item()  # expect: PP501
        print(epoch, correct / len(test_loader.dataset))


def extract(loader, model, device):
    codes = []
    for img, _ in tqdm(loader):
        _, _, ids = model.encode(img.to(device))  # expect: PP503 high
        codes.append(ids.detach().cpu().numpy())
    return codes


def main(model, loader, device):
    model.eval()
    return extract(loader, model, device)
