"""PP501: an evaluation loop in a module that puts nothing on a GPU (a CPU notebook's test loop)."""

import torch


def test(model, test_loader, criterion):
    model.eval()
    test_loss, correct = 0.0, 0
    with torch.no_grad():
        for data, target in test_loader:
            output = model(data)
            test_loss += criterion(output, target).item()
            correct += output.argmax(1).eq(target).sum().item()
    return test_loss / len(test_loader), correct
