import torch


def accuracy(output, target):
    pred = torch.argmax(output, dim=1)
    correct = 0
    for i in range(pred.size(0)):  # expect: PP509 low
        if pred[i] == target[i]:
            correct += 1
    return correct / pred.size(0)


def scale(x, w, b):
    out = torch.empty_like(x)
    for i in range(len(out)):  # expect: PP509 low
        out[i] = torch.sigmoid(x[i] * w[i] + b)
    return out


def count_positive(model, batch):
    probs = model(batch)
    positives = 0
    for p in probs:  # expect: PP509 low
        if p > 0.5:
            positives += 1
    return positives


def batch_accuracy(outputs, labels):
    preds = outputs.argmax(dim=1)
    correct = 0
    for i in range(len(preds)):  # expect: PP509 low
        if preds[i] == labels[i]:
            correct += 1
    return correct / len(preds)
