import torch
import torch.nn.functional as F

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def compute_accuracy(model, data_loader):
    correct_pred, num_examples = 0, 0
    for features, targets in data_loader:
        features = features.to(device)
        targets = targets.to(device)
        logits, probas = model(features)  # expect: PP503 high
        _, predicted_labels = torch.max(probas, 1)
        num_examples += targets.size(0)
        correct_pred += (predicted_labels == targets).sum()
    return correct_pred.float() / num_examples * 100


def train(model, train_loader, optimizer, num_epochs):
    for epoch in range(num_epochs):
        model = model.train()
        for features, targets in train_loader:
            logits, _ = model(features.to(device))
            cost = F.cross_entropy(logits, targets.to(device))
            optimizer.zero_grad()
            cost.backward()
            optimizer.step()
        model = model.eval()
        print(f"Epoch: {epoch + 1:03d} train accuracy: {compute_accuracy(model, train_loader):.2f}%")
