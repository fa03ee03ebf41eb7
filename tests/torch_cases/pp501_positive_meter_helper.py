import torch.nn.functional as F


def calc_loss(pred, target, metrics):
    bce = F.binary_cross_entropy_with_logits(pred, target)
    metrics["bce"] += bce.data.cpu().numpy() * target.size(0)  # expect: PP501
    return bce


def train_model(model, loader, optimizer, device):
    model.train()
    metrics = {"bce": 0.0}
    for inputs, labels in loader:
        inputs, labels = inputs.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = calc_loss(model(inputs), labels, metrics)
        loss.backward()
        optimizer.step()
    return metrics
